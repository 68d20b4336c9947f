import type { Platform } from '../../../../src-shared/api/common';
import { accountColour } from '../../app/account-colour';
import { plainName } from '../../app/bidi';
import { PLATFORM_META } from '../../app/platforms';
import { PlatformMark } from '../../components/PlatformMark';
import { faceOf } from './account-face';
import type { PreviewAuthor, PreviewMedia } from './preview-types';
import { countFor } from './caption-counts';
import { LinkCard } from './LinkCard';
import { PreviewMediaGrid } from './PreviewMediaGrid';
import { PreviewText } from './PreviewText';
import { firstLink } from './preview-text';

/** Feeds that lead with the picture and put the caption under it. */
const MEDIA_FIRST: ReadonlySet<Platform> = new Set(['instagram', 'tiktok', 'youtube']);
/** Feeds that turn a post's first link into a card when the post has no media. */
const LINK_CARDS: ReadonlySet<Platform> = new Set(['x', 'linkedin']);

/** One platform's preview: its count against the platform's own limit, and the post as that feed shows it. */
export function PlatformPreview({
  platform,
  caption,
  media,
  author,
  id,
}: {
  readonly platform: Platform;
  readonly caption: string;
  readonly media: readonly PreviewMedia[];
  readonly author: PreviewAuthor | null;
  readonly id: string;
}) {
  const label = PLATFORM_META[platform].label;
  const count = countFor(platform, caption);
  const link = media.length === 0 && LINK_CARDS.has(platform) ? firstLink(caption) : null;
  const pictures = media.length > 0 ? <PreviewMediaGrid platform={platform} media={media} /> : null;
  return (
    <article className={`preview preview--${platform}`} aria-labelledby={`${id}-title`}>
      <header className="preview__header">
        <PlatformMark platform={platform} decorative />
        <h3 id={`${id}-title`} className="preview__title">
          Preview on {label}
        </h3>
        <span
          className={`badge badge--plain preview__count tabular${count.over > 0 ? ' badge--warning' : ''}`}
          aria-label={`${label} counts ${count.count} of ${count.max} characters`}
        >
          {`${count.count.toLocaleString()} / ${count.max.toLocaleString()}`}
        </span>
      </header>
      <div className="preview__post">
        <AuthorLine platform={platform} author={author} />
        {MEDIA_FIRST.has(platform) ? pictures : null}
        <PreviewText platform={platform} caption={caption} />
        {link ? <LinkCard link={link} /> : null}
        {MEDIA_FIRST.has(platform) ? null : pictures}
      </div>
    </article>
  );
}

/** The avatar, display name and handle the post appears under (the handle only where the name carries one). */
function AuthorLine({
  platform,
  author,
}: {
  readonly platform: Platform;
  readonly author: PreviewAuthor | null;
}) {
  const face = faceOf(author?.name ?? 'Your account');
  const colour = author ? accountColour(author.id) : 1;
  return (
    <div className="preview__author">
      <span className={`mark-box avatar avatar--small account-colour-${colour}`} aria-hidden="true">
        {face.initials}
      </span>
      <span className="preview__who">
        <span className="preview__name">{plainName(face.name)}</span>
        <span className="preview__handle">
          {face.handle ? plainName(face.handle) : null}
          {face.handle && platform === 'x' ? ' · ' : null}
          {platform === 'x' || platform === 'linkedin' ? 'now' : null}
        </span>
      </span>
    </div>
  );
}
