import type { Platform } from '../../../../src-shared/api/common';
import { PlatformPreview } from './PlatformPreview';
import type { PreviewAuthor, PreviewMedia } from './preview-types';
import './previews.css';

export type { PreviewAuthor, PreviewMedia } from './preview-types';

/**
 * How the post will look on each picked platform, side by side: the author, the caption as its feed folds it,
 * the link card or the media, and the caption's length as that platform counts it.
 */
export function CaptionPreviews({
  caption,
  platforms,
  media,
  authors,
  idPrefix = 'preview',
}: {
  readonly caption: string;
  readonly platforms: readonly Platform[];
  readonly media: readonly PreviewMedia[];
  /** The (first) account each platform's preview speaks as; without one, a neutral author. */
  readonly authors?: ReadonlyMap<Platform, PreviewAuthor>;
  readonly idPrefix?: string;
}) {
  if (platforms.length === 0) return null;
  return (
    <section className="previews" aria-label="Previews">
      {platforms.map((p) => (
        <PlatformPreview
          key={p}
          platform={p}
          caption={caption}
          media={media}
          author={authors?.get(p) ?? null}
          id={`${idPrefix}-${p}`}
        />
      ))}
    </section>
  );
}
