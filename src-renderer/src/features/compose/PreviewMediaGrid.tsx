import { useState } from 'react';
import type { Platform } from '../../../../src-shared/api/common';
import { plainName } from '../../app/bidi';
import { IconFilm, IconPlay } from '../../components/icons';
import type { PreviewMedia } from './preview-types';
import { frameFor } from './caption-counts';

/** Feeds that show several files one at a time (swiped); the others lay them out in a grid. */
const CAROUSELS: ReadonlySet<Platform> = new Set(['instagram', 'tiktok', 'youtube']);
/** The most a grid shows; the rest is said on the last tile ("+2"). */
const GRID_MAX = 4;

/**
 * The post's media as the feed lays them out: one file in the platform's frame (its own shape kept between the
 * platform's narrowest and widest), several in a grid of up to four, or, where the feed swipes, the first of a
 * carousel with its count. A video shows its poster frame with a play mark.
 */
export function PreviewMediaGrid({
  platform,
  media,
}: {
  readonly platform: Platform;
  readonly media: readonly PreviewMedia[];
}) {
  const first = media[0];
  if (!first) return null;
  if (media.length === 1 || CAROUSELS.has(platform)) {
    return (
      <div className="preview__carousel">
        <Tile platform={platform} item={first} index={0} single />
        {media.length > 1 ? (
          <>
            <span className="preview__badge" aria-label={`First of ${media.length} files`}>
              1 / {media.length}
            </span>
            <span className="preview__dots" aria-hidden="true">
              {media.slice(0, 10).map((m, i) => (
                <span
                  key={`${m.name}-${i}`}
                  className={`preview__dot${i === 0 ? ' preview__dot--on' : ''}`}
                />
              ))}
            </span>
          </>
        ) : null}
      </div>
    );
  }
  const shown = media.slice(0, GRID_MAX);
  const rest = media.length - shown.length;
  return (
    <div className={`preview__grid preview__grid--${shown.length}`}>
      {shown.map((m, i) => (
        <div key={`${m.name}-${i}`} className="preview__cell">
          <Tile platform={platform} item={m} index={i} single={false} />
          {rest > 0 && i === shown.length - 1 ? (
            <span className="preview__more-files" aria-label={`${rest} more files`}>
              +{rest}
            </span>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function Tile({
  platform,
  item,
  index,
  single,
}: {
  readonly platform: Platform;
  readonly item: PreviewMedia;
  readonly index: number;
  readonly single: boolean;
}) {
  const [broken, setBroken] = useState(false);
  // Without the pipeline's dimensions (a file from the library), the loaded file says its own shape.
  const [natural, setNatural] = useState<readonly [number, number] | null>(null);
  const ratio = single ? frameFor(platform, item.width ?? natural?.[0], item.height ?? natural?.[1]) : null;
  const name = plainName(item.name);
  const which = index === 0 ? 'First' : `Number ${index + 1}`;
  return (
    <div className="preview__frame" style={ratio ? { aspectRatio: String(ratio) } : undefined}>
      {item.src && !broken && item.kind === 'image' ? (
        <img
          src={item.src}
          alt={`${which} image, ${name}`}
          onLoad={(e) => setNatural([e.currentTarget.naturalWidth, e.currentTarget.naturalHeight])}
          onError={() => setBroken(true)}
        />
      ) : item.src && !broken && item.kind === 'video' ? (
        <>
          {/* The poster frame: the first moment of the video itself (#t), never played here. */}
          <video
            src={`${item.src}#t=0.1`}
            muted
            preload="metadata"
            aria-label={`${which} video, ${name} (poster frame)`}
            onLoadedMetadata={(e) => setNatural([e.currentTarget.videoWidth, e.currentTarget.videoHeight])}
            onError={() => setBroken(true)}
          />
          <span className="preview__play" aria-hidden="true">
            <IconPlay size={18} />
          </span>
        </>
      ) : (
        <span className="preview__placeholder" aria-label={`${which} file, ${name}`} role="img">
          <IconFilm size={22} />
        </span>
      )}
    </div>
  );
}
