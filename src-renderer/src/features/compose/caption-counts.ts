import type { Platform } from '../../../../src-shared/api/common';
import { PLATFORM_RULES } from '../../../../src-shared/platform-rules';
import { checkPost, countFor } from '../../../../src-shared/platform-check';

export { countFor };

/** One warning per picked platform the caption is too long for, naming the platform and its limit. */
export function platformWarnings(caption: string, platforms: readonly Platform[]): string[] {
  return checkPost(platforms, { caption, media: [] })
    .filter((v) => v.rule === 'caption-length')
    .map((v) => v.message);
}

export interface Folded {
  /** What the feed shows before "… more". */
  readonly shown: string;
  /** True when the feed hides the rest behind "… more". */
  readonly folded: boolean;
}

/** Where the platform's feed cuts the caption: after a number of characters or of lines, whichever comes first. */
export function foldCaption(caption: string, platform: Platform): Folded {
  const fold = PLATFORM_RULES[platform].caption.fold;
  if (!fold) return { shown: caption, folded: false };
  let end = caption.length;
  let breaks = 0;
  for (let i = 0; i < caption.length; i++) {
    if (caption[i] === '\n' && ++breaks === fold.lines) {
      end = i;
      break;
    }
  }
  // Never cut a surrogate pair (an emoji) in half.
  let cut = Math.min(end, fold.chars);
  if (cut < caption.length && /[\uD800-\uDBFF]/.test(caption.charAt(cut - 1))) cut--;
  if (cut >= caption.length) return { shown: caption, folded: false };
  return { shown: caption.slice(0, cut).trimEnd(), folded: true };
}

/** The frame the feed shows the first image in: its own shape, kept between the platform's narrowest and widest. */
export function frameFor(platform: Platform, width?: number | null, height?: number | null): number {
  const { min, max } = PLATFORM_RULES[platform].frame;
  const own = width && height ? width / height : 1;
  return Math.min(max, Math.max(min, own));
}
