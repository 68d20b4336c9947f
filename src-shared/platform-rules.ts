import type { Platform } from './api/common';
import { LIMITS } from './api/limits';

/**
 * What each platform takes in one post, declared once: Compose, Bulk, the inbox and the CLI ask `checkPost`
 * (platform-check.ts, which also counts captions as each platform does) and show its verdicts. This file is the
 * table alone, light enough for the sandbox and every CLI command to load. Two sources, and each rule says which:
 *
 * - **service**: the contract (service-api.md) states it. Such a rule **blocks**: the service refuses it.
 * - **platform**: the platform's own published rule, which the contract does not state. Such a rule **warns**,
 *   unless the post certainly fails there (a text-only Instagram post: its API publishes media only); then it
 *   blocks, and the rule says why it is certain.
 */
export type RuleSource = 'service' | 'platform';
export type Severity = 'block' | 'warn';

export interface Rule<T> {
  readonly value: T;
  readonly source: RuleSource;
  readonly severity: Severity;
}

export interface PlatformRules {
  /** The platform's name in a sentence: "X", "LinkedIn". */
  readonly name: string;
  /** Posts (`POST /api/cli/posts`, bulk) reach it: the contract keeps YouTube out ("unavailable"). */
  readonly postsReach: Rule<boolean>;
  readonly caption: {
    /** The longest caption the platform itself takes, in its own count. */
    readonly max: Rule<number>;
    /** How the platform counts: X weighs characters (twitter-text); the others count UTF-16 code units. */
    readonly counting: 'x-weighted' | 'utf16';
    /** Where the feed folds the caption behind "… more": after this many characters or lines (approximate). */
    readonly fold: { readonly chars: number; readonly lines: number } | null;
  };
  /** The frame the feed shows the first image in: the narrowest and widest width/height it keeps. */
  readonly frame: { readonly min: number; readonly max: number };
  readonly media: {
    /** A post needs at least one image or video. */
    readonly required: Rule<boolean>;
    /** Images and videos may go together in one post. */
    readonly mixKinds: Rule<boolean>;
    readonly maxImages: Rule<number>;
    readonly maxVideos: Rule<number>;
    /** The longest video, in seconds. */
    readonly videoSeconds: Rule<number>;
    /** The video shapes the platform takes, width/height, narrowest and widest. */
    readonly videoAspect: Rule<{ readonly min: number; readonly max: number }>;
  };
}

const service = <T>(value: T): Rule<T> => ({ value, source: 'service', severity: 'block' });
const warns = <T>(value: T): Rule<T> => ({ value, source: 'platform', severity: 'warn' });
/** A platform's own rule that a post certainly fails: its API refuses it whatever the account. */
const certain = <T>(value: T): Rule<T> => ({ value, source: 'platform', severity: 'block' });

/** The service's own caption limit (service-api.md, Limits: 2,200): no platform takes more through it. */
export const SERVICE_CAPTION = LIMITS.captionLength;

export const PLATFORM_RULES: Readonly<Record<Platform, PlatformRules>> = {
  // X Developer Platform: "Counting characters" (280 weighted; URLs 23, CJK and most emoji 2; Premium
  // accounts may post longer, so it warns); media: up to 4 images or 1 video in a post, never both (the
  // API refuses a mix, so it blocks); videos up to 140 s and between 1:3 and 3:1 for non-Premium accounts.
  // Timeline images are shown between 3:4 and 2:1.
  x: {
    name: 'X',
    postsReach: service(true),
    caption: { max: warns(280), counting: 'x-weighted', fold: null },
    frame: { min: 3 / 4, max: 2 },
    media: {
      required: warns(false),
      mixKinds: certain(false),
      maxImages: certain(4),
      maxVideos: certain(1),
      videoSeconds: warns(140),
      videoAspect: warns({ min: 1 / 3, max: 3 }),
    },
  },
  // Instagram Graph API, content publishing: an image, a video (reel) or a carousel of up to 10 images and
  // videos; no text-only posts (certain: the API has no such media type). Captions up to 2,200 characters,
  // about 125 shown before "more". Reels 3 s to 15 min; feed shapes 4:5 to 1.91:1 (reels 9:16).
  instagram: {
    name: 'Instagram',
    postsReach: service(true),
    caption: { max: warns(2200), counting: 'utf16', fold: { chars: 125, lines: 2 } },
    frame: { min: 4 / 5, max: 1.91 },
    media: {
      required: certain(true),
      mixKinds: warns(true),
      maxImages: certain(10),
      maxVideos: certain(10),
      videoSeconds: warns(15 * 60),
      videoAspect: warns({ min: 9 / 16, max: 1.91 }),
    },
  },
  // TikTok Content Posting API: a video, or a photo post of up to 35 images, never both and never neither
  // (certain: the API takes one or the other). Title up to 2,200 UTF-16 runes. Videos up to 10 min (the
  // account's own maximum may be lower, so it warns), shown 9:16.
  tiktok: {
    name: 'TikTok',
    postsReach: service(true),
    caption: { max: warns(2200), counting: 'utf16', fold: { chars: 100, lines: 2 } },
    frame: { min: 9 / 16, max: 9 / 16 },
    media: {
      required: certain(true),
      mixKinds: certain(false),
      maxImages: certain(35),
      maxVideos: certain(1),
      videoSeconds: warns(10 * 60),
      videoAspect: warns({ min: 9 / 16, max: 16 / 9 }),
    },
  },
  // LinkedIn Posts API: commentary up to 3,000 characters (the service's 2,200 is lower and is what counts);
  // the feed folds after about 210 characters (three lines). A post carries up to 20 images (multi-image) or
  // one video, not both (certain: the API has no mixed media type). Videos 3 s to 15 min, 1:2.4 to 2.4:1.
  linkedin: {
    name: 'LinkedIn',
    postsReach: service(true),
    caption: { max: warns(3000), counting: 'utf16', fold: { chars: 210, lines: 3 } },
    frame: { min: 4 / 5, max: 1.91 },
    media: {
      required: warns(false),
      mixKinds: certain(false),
      maxImages: certain(20),
      maxVideos: certain(1),
      videoSeconds: warns(15 * 60),
      videoAspect: warns({ min: 1 / 2.4, max: 2.4 }),
    },
  },
  // service-api.md: "Publishing or scheduling to youtube through POST /api/cli/posts is unavailable";
  // YouTube is reached through automations and direct uploads. The rest is the YouTube Data API's (a
  // description of up to 5,000 characters, one video, 16:9 player), kept so the table stays complete.
  youtube: {
    name: 'YouTube',
    postsReach: service(false),
    caption: { max: warns(5000), counting: 'utf16', fold: { chars: 100, lines: 3 } },
    frame: { min: 16 / 9, max: 16 / 9 },
    media: {
      required: certain(true),
      mixKinds: certain(false),
      maxImages: certain(0),
      maxVideos: certain(1),
      videoSeconds: warns(12 * 60 * 60),
      videoAspect: warns({ min: 9 / 16, max: 16 / 9 }),
    },
  },
};

/** The longest caption a post can carry to this platform: its own limit or the service's, the lower. */
export function captionMax(platform: Platform): number {
  return Math.min(PLATFORM_RULES[platform].caption.max.value, SERVICE_CAPTION);
}

const n = (v: number): string => v.toLocaleString('en-US');

/** What the composer says under the caption for this platform, from the table (never a number of its own). */
export function captionHint(platform: Platform): string {
  const r = PLATFORM_RULES[platform];
  if (!r.postsReach.value)
    return `${r.name} is reached through automations and direct uploads, not through posts.`;
  const max = captionMax(platform);
  const own = r.caption.max.value;
  const head =
    own < SERVICE_CAPTION
      ? `Up to ${n(own)} characters on ${r.name} (the service allows ${n(SERVICE_CAPTION)})`
      : own > SERVICE_CAPTION
        ? `Up to ${n(max)} characters (the service's limit; ${r.name} itself takes ${n(own)})`
        : `Up to ${n(max)} characters`;
  const fold = r.caption.fold ? `; about ${n(r.caption.fold.chars)} show before "more"` : '';
  const media = r.media.required.value ? '; needs an image or a video' : '';
  return `${head}${fold}${media}.`;
}
