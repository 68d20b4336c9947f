import * as twitterText from 'twitter-text';
import type { Platform } from '../../../../src-shared/api/common';
import { PLATFORM_CAPTION_RULES } from '../../../../src-shared/platform-captions';
import { PLATFORM_META } from '../../app/platforms';

// twitter-text's ES build exports one default object while its CommonJS build (and its types) are named
// exports: take whichever this bundler handed over.
const tt = (twitterText as unknown as { default?: typeof twitterText }).default ?? twitterText;

export interface PlatformCount {
  readonly platform: Platform;
  readonly count: number;
  readonly max: number;
  readonly over: number;
}

/** The caption's length as this platform counts it: X's weighted count (URLs 23, CJK and emoji 2). */
export function countFor(platform: Platform, caption: string): PlatformCount {
  const rules = PLATFORM_CAPTION_RULES[platform];
  const count = rules.counting === 'x-weighted' ? tt.parseTweet(caption).weightedLength : caption.length;
  return { platform, count, max: rules.maxLength, over: Math.max(0, count - rules.maxLength) };
}

/** One warning per picked platform the caption is too long for, naming the platform and its limit. */
export function platformWarnings(caption: string, platforms: readonly Platform[]): string[] {
  return platforms.flatMap((p) => {
    const c = countFor(p, caption);
    if (c.over === 0) return [];
    const label = PLATFORM_META[p].label;
    return [
      `${label} takes at most ${c.max.toLocaleString()} characters; this caption counts ${c.count.toLocaleString()} there (${c.over.toLocaleString()} over).`,
    ];
  });
}

export interface Folded {
  /** What the feed shows before "… more". */
  readonly shown: string;
  /** True when the feed hides the rest behind "… more". */
  readonly folded: boolean;
}

/** Where the platform's feed cuts the caption: after a number of characters or of lines, whichever comes first. */
export function foldCaption(caption: string, platform: Platform): Folded {
  const fold = PLATFORM_CAPTION_RULES[platform].fold;
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
  const { min, max } = PLATFORM_CAPTION_RULES[platform].frame;
  const own = width && height ? width / height : 1;
  return Math.min(max, Math.max(min, own));
}
