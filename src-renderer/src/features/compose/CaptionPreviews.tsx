import { useState } from 'react';
import type { Platform } from '../../../../src-shared/api/common';
import { PLATFORM_META } from '../../app/platforms';
import { plainName } from '../../app/bidi';
import { IconFilm } from '../../components/icons';
import { PlatformMark } from '../../components/PlatformMark';
import { countFor, foldCaption, frameFor } from './caption-counts';
import './previews.css';

/** A file of the post as a preview shows it; `src` is null when the host has no preview of it. */
export interface PreviewMedia {
  readonly name: string;
  readonly src: string | null;
  readonly kind: 'image' | 'video' | 'other';
  readonly width?: number | null | undefined;
  readonly height?: number | null | undefined;
}

/**
 * How the post will look on each picked platform: the caption as its feed wraps and folds it, the first
 * file in the platform's frame (a carousel's first image), and the caption's length as that platform counts it.
 */
export function CaptionPreviews({
  caption,
  platforms,
  media,
  idPrefix = 'preview',
}: {
  readonly caption: string;
  readonly platforms: readonly Platform[];
  readonly media: readonly PreviewMedia[];
  readonly idPrefix?: string;
}) {
  if (platforms.length === 0) return null;
  return (
    <section className="previews" aria-label="Previews">
      {platforms.map((p) => (
        <PlatformPreview key={p} platform={p} caption={caption} media={media} id={`${idPrefix}-${p}`} />
      ))}
    </section>
  );
}

function PlatformPreview({
  platform,
  caption,
  media,
  id,
}: {
  readonly platform: Platform;
  readonly caption: string;
  readonly media: readonly PreviewMedia[];
  readonly id: string;
}) {
  const [open, setOpen] = useState(false);
  const label = PLATFORM_META[platform].label;
  const count = countFor(platform, caption);
  const fold = foldCaption(caption, platform);
  const first = media[0];
  const countText = `${count.count.toLocaleString()} / ${count.max.toLocaleString()}`;
  return (
    <article className={`preview preview--${platform}`} aria-labelledby={`${id}-title`}>
      <header className="preview__header">
        <PlatformMark platform={platform} decorative />
        <h3 id={`${id}-title`} className="preview__title">
          Preview on {label}
        </h3>
        <span
          className={`preview__count tabular${count.over > 0 ? ' preview__count--over' : ''}`}
          aria-label={`${label} counts ${count.count} of ${count.max} characters`}
        >
          {countText}
        </span>
      </header>
      {first ? <PreviewFrame platform={platform} first={first} total={media.length} /> : null}
      {caption.length > 0 ? (
        <p className="preview__text">
          {plainName(open || !fold.folded ? caption : fold.shown)}
          {fold.folded && !open ? (
            <>
              {'… '}
              <button type="button" className="preview__more" onClick={() => setOpen(true)}>
                more
              </button>
            </>
          ) : null}
        </p>
      ) : (
        <p className="preview__text faint">(no caption)</p>
      )}
    </article>
  );
}

function PreviewFrame({
  platform,
  first,
  total,
}: {
  readonly platform: Platform;
  readonly first: PreviewMedia;
  readonly total: number;
}) {
  const [broken, setBroken] = useState(false);
  // Without the pipeline's dimensions (a file from the library), the loaded image says its own shape.
  const [natural, setNatural] = useState<readonly [number, number] | null>(null);
  const ratio = frameFor(platform, first.width ?? natural?.[0], first.height ?? natural?.[1]);
  const name = plainName(first.name);
  return (
    <div className="preview__frame" style={{ aspectRatio: String(ratio) }}>
      {first.src && !broken && first.kind === 'image' ? (
        <img
          src={first.src}
          alt={`First image, ${name}`}
          onLoad={(e) => setNatural([e.currentTarget.naturalWidth, e.currentTarget.naturalHeight])}
          onError={() => setBroken(true)}
        />
      ) : first.src && !broken && first.kind === 'video' ? (
        <video
          src={first.src}
          muted
          preload="metadata"
          aria-label={`First video, ${name}`}
          onLoadedMetadata={(e) => setNatural([e.currentTarget.videoWidth, e.currentTarget.videoHeight])}
          onError={() => setBroken(true)}
        />
      ) : (
        <span className="preview__placeholder" aria-label={`First file, ${name}`} role="img">
          <IconFilm size={22} />
        </span>
      )}
      {total > 1 ? (
        <span className="preview__badge" aria-label={`First of ${total} files`}>
          1 / {total}
        </span>
      ) : null}
    </div>
  );
}
