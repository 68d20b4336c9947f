import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../../src-shared/api/common';
import { LIMITS } from '../../../src-shared/api/limits';
import { PLATFORM_RULES, captionHint, captionMax } from '../../../src-shared/platform-rules';
import { checkPost, countFor, type MediaFacts } from '../../../src-shared/platform-check';

const image: MediaFacts = { kind: 'image' };
const video = (durationSeconds = 30, width = 1080, height = 1920): MediaFacts => ({
  kind: 'video',
  durationSeconds,
  width,
  height,
});
const rules = (v: ReturnType<typeof checkPost>) => v.map((x) => `${x.platform}:${x.rule}:${x.severity}`);

describe('the platform rules table', () => {
  it('blocks an Instagram post with no media, naming Instagram and the number', () => {
    const v = checkPost(['instagram'], { caption: 'hello', media: [] });
    expect(rules(v)).toEqual(['instagram:media-required:block']);
    expect(v[0]?.message).toBe('Instagram needs at least 1 image or video; this post has none.');
    expect(v[0]?.source).toBe('platform');
    // With an image it goes.
    expect(checkPost(['instagram'], { caption: 'hello', media: [image] })).toEqual([]);
  });

  it('blocks an image and a video together on X, and lets Instagram mix them', () => {
    const v = checkPost(['x', 'instagram'], { caption: 'hi', media: [image, video()] });
    expect(rules(v)).toEqual(['x:media-mix:block']);
    expect(v[0]?.message).toBe(
      'X takes images or a video, not both in one post; this one has 1 image and 1 video.',
    );
  });

  it('counts media per platform: 5 images are too many on X (4), fine on LinkedIn (20)', () => {
    const five = Array.from({ length: 5 }, () => image);
    const v = checkPost(['x', 'linkedin'], { caption: '', media: five });
    expect(rules(v)).toEqual(['x:image-count:block']);
    expect(v[0]?.message).toContain('X takes at most 4 images in one post; this one has 5.');
    expect(rules(checkPost(['tiktok'], { caption: '', media: [video(), video()] }))).toEqual([
      'tiktok:video-count:block',
    ]);
  });

  it("warns, not blocks, past X's 280 weighted characters (Premium accounts take more)", () => {
    const v = checkPost(['x'], { caption: 'a'.repeat(500), media: [] });
    expect(rules(v)).toEqual(['x:caption-length:warn']);
    expect(v[0]?.message).toBe('X takes at most 280 characters; this caption counts 500 there (220 over).');
    expect(v.filter((x) => x.severity === 'block')).toEqual([]);
    expect(checkPost(['x'], { caption: 'a'.repeat(280), media: [] })).toEqual([]);
  });

  it('warns about a video too long or the wrong shape, with both numbers', () => {
    const long = checkPost(['x'], { caption: '', media: [video(600, 1920, 1080)] });
    expect(rules(long)).toEqual(['x:video-length:warn']);
    expect(long[0]?.message).toBe('X takes videos up to 140 seconds; this one runs 10 minutes.');
    const wide = checkPost(['tiktok'], { caption: '', media: [video(30, 4000, 1000)] });
    expect(rules(wide)).toEqual(['tiktok:video-aspect:warn']);
    expect(wide[0]?.message).toContain('4000×1000');
    // 1080×1920 is 9:16 exactly: within every platform's range.
    expect(checkPost(['tiktok', 'instagram'], { caption: '', media: [video(30)] })).toEqual([]);
  });

  it('blocks YouTube for posts, as the contract says, and says so once', () => {
    const v = checkPost(['youtube'], { caption: '', media: [] });
    expect(rules(v)).toEqual(['youtube:posts-reach:block']);
    expect(v[0]?.source).toBe('service');
    expect(v[0]?.message).toContain('automations and direct uploads');
  });

  it('puts blocks before warnings, and knows nothing of a kind it was not told', () => {
    const v = checkPost(['x', 'instagram'], { caption: 'a'.repeat(300), media: [] });
    expect(rules(v)).toEqual(['instagram:media-required:block', 'x:caption-length:warn']);
    // An uploaded asset of unknown kind counts as media but not as an image or a video.
    expect(checkPost(['instagram', 'x'], { caption: '', media: [{ kind: 'unknown' }] })).toEqual([]);
  });

  it('caps every caption at the service limit: the LinkedIn count and hint say 2,200 alike', () => {
    expect(LIMITS.captionLength).toBe(2200);
    expect(PLATFORM_RULES.linkedin.caption.max.value).toBe(3000);
    expect(captionMax('linkedin')).toBe(2200);
    expect(countFor('linkedin', 'a'.repeat(2300))).toMatchObject({ max: 2200, over: 100 });
    expect(captionHint('linkedin')).toContain('Up to 2,200 characters');
    expect(captionHint('linkedin')).not.toContain('3,000 characters (');
    expect(captionHint('x')).toContain('Up to 280 characters on X');
    for (const p of PLATFORMS) {
      // The hint names the same number the preview counts against.
      if (PLATFORM_RULES[p].postsReach.value)
        expect(captionHint(p)).toContain(captionMax(p).toLocaleString('en-US'));
    }
  });

  it('declares every rule with a source and a severity, and a service rule always blocks', () => {
    for (const p of PLATFORMS) {
      const r = PLATFORM_RULES[p];
      for (const rule of [r.postsReach, r.caption.max, ...Object.values(r.media)]) {
        expect(['service', 'platform']).toContain(rule.source);
        if (rule.source === 'service') expect(rule.severity).toBe('block');
      }
    }
  });
});
