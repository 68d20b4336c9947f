import { useState } from 'react';
import type { Platform } from '../../../../src-shared/api/common';
import { plainName } from '../../app/bidi';
import { foldCaption } from './caption-counts';
import { captionParts } from './preview-text';

/**
 * The caption as the feed shows it: cut at the platform's fold with "… more" (which opens it), and on X each
 * link shown shortened, as X shows it (it counts 23 whatever its length).
 */
export function PreviewText({
  platform,
  caption,
}: {
  readonly platform: Platform;
  readonly caption: string;
}) {
  const [open, setOpen] = useState(false);
  if (caption.length === 0) return <p className="preview__text faint">(no caption)</p>;
  const fold = foldCaption(caption, platform);
  const shown = open || !fold.folded ? caption : fold.shown;
  return (
    <p className="preview__text">
      {captionParts(shown, platform === 'x').map((part, i) =>
        part.url ? (
          <span key={i} className="preview__link" title={plainName(part.url)}>
            {plainName(part.text)}
          </span>
        ) : (
          plainName(part.text)
        ),
      )}
      {fold.folded && !open ? (
        <>
          {'… '}
          <button type="button" className="preview__more" onClick={() => setOpen(true)}>
            more
          </button>
        </>
      ) : null}
    </p>
  );
}
