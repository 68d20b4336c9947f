import * as twitterText from 'twitter-text';
import type { Platform } from './api/common';
import {
  PLATFORM_RULES,
  SERVICE_CAPTION,
  captionMax,
  type Rule,
  type RuleSource,
  type Severity,
} from './platform-rules';

// twitter-text's ES build exports one default object while its CommonJS build (and its types) are named
// exports: take whichever the bundler or Node handed over. It takes a fifth of a second to load, which is why
// this file is apart from the table: only what checks a post loads it.
const tt = (twitterText as unknown as { default?: typeof twitterText }).default ?? twitterText;

const n = (v: number): string => v.toLocaleString('en-US');

export interface CaptionCount {
  readonly platform: Platform;
  readonly count: number;
  readonly max: number;
  readonly over: number;
}

/** The caption's length as this platform counts it, against the longest it can carry (`captionMax`). */
export function countFor(platform: Platform, caption: string): CaptionCount {
  const rules = PLATFORM_RULES[platform].caption;
  const count = rules.counting === 'x-weighted' ? tt.parseTweet(caption).weightedLength : caption.length;
  const max = captionMax(platform);
  return { platform, count, max, over: Math.max(0, count - max) };
}

/** What a check knows of one media item. `unknown`: an uploaded asset whose kind this machine has not seen. */
export interface MediaFacts {
  readonly kind: 'image' | 'video' | 'unknown';
  readonly durationSeconds?: number | null | undefined;
  readonly width?: number | null | undefined;
  readonly height?: number | null | undefined;
}

export type RuleName =
  | 'posts-reach'
  | 'caption-length'
  | 'media-required'
  | 'media-mix'
  | 'image-count'
  | 'video-count'
  | 'video-length'
  | 'video-aspect';

export interface RuleVerdict {
  readonly platform: Platform;
  readonly rule: RuleName;
  readonly severity: Severity;
  readonly source: RuleSource;
  /** One sentence that names the platform and the number. */
  readonly message: string;
}

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${n(count)} ${count === 1 ? one : many}`;

/** Whole minutes as minutes ("10 minutes"), anything else as seconds ("140 seconds"), so a limit reads as stated. */
const duration = (s: number): string =>
  s >= 120 && Math.round(s) % 60 === 0 ? `${n(Math.round(s) / 60)} minutes` : `${n(Math.round(s))} seconds`;

const ratio = (r: number): string => {
  if (r >= 1) return `${n(Math.round(r * 100) / 100)}:1`;
  return `1:${n(Math.round((1 / r) * 100) / 100)}`;
};

/**
 * Every rule of the table that this post breaks on each platform: blocks first, then warnings, in platform
 * order. The service's own caption limit (2,200 for every platform) is not repeated here: the callers check it
 * once for the post.
 */
export function checkPost(
  platforms: readonly Platform[],
  post: { readonly caption: string; readonly media: readonly MediaFacts[] },
): RuleVerdict[] {
  const out: RuleVerdict[] = [];
  for (const platform of new Set(platforms)) {
    const r = PLATFORM_RULES[platform];
    const add = (rule: RuleName, { source, severity }: Rule<unknown>, message: string): void => {
      out.push({ platform, rule, severity, source, message });
    };
    if (!r.postsReach.value) {
      add(
        'posts-reach',
        r.postsReach,
        `${r.name} cannot be reached by posts: the service publishes to ${r.name} only through automations and direct uploads.`,
      );
      continue;
    }
    const c = countFor(platform, post.caption);
    if (r.caption.max.value < SERVICE_CAPTION && c.over > 0) {
      add(
        'caption-length',
        r.caption.max,
        `${r.name} takes at most ${n(c.max)} characters; this caption counts ${n(c.count)} there (${n(c.over)} over).`,
      );
    }
    const images = post.media.filter((m) => m.kind === 'image').length;
    const videos = post.media.filter((m) => m.kind === 'video').length;
    if (r.media.required.value && post.media.length === 0) {
      add(
        'media-required',
        r.media.required,
        `${r.name} needs at least 1 image or video; this post has none.`,
      );
    }
    if (!r.media.mixKinds.value && images > 0 && videos > 0) {
      add(
        'media-mix',
        r.media.mixKinds,
        `${r.name} takes images or a video, not both in one post; this one has ${plural(images, 'image')} and ${plural(videos, 'video')}.`,
      );
    }
    if (images > r.media.maxImages.value) {
      add(
        'image-count',
        r.media.maxImages,
        `${r.name} takes at most ${plural(r.media.maxImages.value, 'image')} in one post; this one has ${n(images)}.`,
      );
    }
    if (videos > r.media.maxVideos.value) {
      add(
        'video-count',
        r.media.maxVideos,
        `${r.name} takes at most ${plural(r.media.maxVideos.value, 'video')} in one post; this one has ${n(videos)}.`,
      );
    }
    for (const m of post.media) {
      if (m.kind !== 'video') continue;
      if (m.durationSeconds && m.durationSeconds > r.media.videoSeconds.value) {
        add(
          'video-length',
          r.media.videoSeconds,
          `${r.name} takes videos up to ${duration(r.media.videoSeconds.value)}; this one runs ${duration(m.durationSeconds)}.`,
        );
      }
      if (m.width && m.height) {
        const own = m.width / m.height;
        const { min, max } = r.media.videoAspect.value;
        // A hair of tolerance: 1080×1920 is 9:16 whatever the rounding.
        if (own < min * 0.99 || own > max * 1.01) {
          add(
            'video-aspect',
            r.media.videoAspect,
            `${r.name} takes videos between ${ratio(min)} and ${ratio(max)} (width to height); this one is ${m.width}×${m.height}.`,
          );
        }
      }
    }
  }
  return out.sort((a, b) => Number(a.severity === 'warn') - Number(b.severity === 'warn'));
}
