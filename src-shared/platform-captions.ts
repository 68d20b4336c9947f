import type { Platform } from './api/common';

/**
 * What each platform does with a caption and its media, as the platforms publish it. The service's own
 * limit (`LIMITS.captionLength`, 2,200) is the hard rule; these only warn. Folds are where the platform's
 * feed cuts the caption with "… more"; the platforms state them loosely, so they are approximate.
 */
export interface PlatformCaptionRules {
  /** The longest caption the platform takes, in its own count. */
  readonly maxLength: number;
  /** How the platform counts: X weighs characters (twitter-text); the others count UTF-16 code units. */
  readonly counting: 'x-weighted' | 'utf16';
  /** Where the feed folds the caption behind "… more": after this many characters or lines. */
  readonly fold: { readonly chars: number; readonly lines: number } | null;
  /** The frame the feed shows the first image in: the narrowest and widest width/height it keeps. */
  readonly frame: { readonly min: number; readonly max: number };
}

export const PLATFORM_CAPTION_RULES: Readonly<Record<Platform, PlatformCaptionRules>> = {
  // X Developer Platform, "Counting characters": 280 weighted characters for a post (URLs count 23,
  // CJK and most emoji count 2). Timeline images are shown between 2:1 and 3:4.
  x: { maxLength: 280, counting: 'x-weighted', fold: null, frame: { min: 3 / 4, max: 2 } },
  // Instagram Graph API, content publishing: "captions are limited to 2,200 characters". The feed shows
  // about 125 characters (two lines) before "more"; feed images are kept between 4:5 and 1.91:1.
  instagram: {
    maxLength: 2200,
    counting: 'utf16',
    fold: { chars: 125, lines: 2 },
    frame: { min: 4 / 5, max: 1.91 },
  },
  // TikTok Content Posting API, post info: "title ... max length 2200 UTF-16 runes". Videos are 9:16.
  tiktok: {
    maxLength: 2200,
    counting: 'utf16',
    fold: { chars: 100, lines: 2 },
    frame: { min: 9 / 16, max: 9 / 16 },
  },
  // LinkedIn Posts API, "commentary": up to 3,000 characters; the feed folds after about 210 characters
  // (three lines) with "…see more". Single images are shown between 4:5 and 1.91:1.
  linkedin: {
    maxLength: 3000,
    counting: 'utf16',
    fold: { chars: 210, lines: 3 },
    frame: { min: 4 / 5, max: 1.91 },
  },
  // YouTube Data API, video resource: a description of up to 5,000 characters; 16:9 player. Not offered
  // in the composer (posts cannot reach YouTube), declared so the table stays complete.
  youtube: {
    maxLength: 5000,
    counting: 'utf16',
    fold: { chars: 100, lines: 3 },
    frame: { min: 16 / 9, max: 16 / 9 },
  },
};
