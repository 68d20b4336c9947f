import { describe, expect, it } from 'vitest';
import {
  countFor,
  foldCaption,
  frameFor,
  platformWarnings,
} from '../../../src-renderer/src/features/compose/caption-counts';

describe('per-platform caption counts', () => {
  it('counts a URL on X as 23, however long it is', () => {
    const url = 'https://example.com/a/very/long/path/that/goes/on/and/on/for/quite/a/while?with=query';
    expect(url.length).toBeGreaterThan(23);
    expect(countFor('x', url).count).toBe(23);
    expect(countFor('x', `Read ${url}`).count).toBe(5 + 23);
    // Elsewhere the URL counts as the characters it has.
    expect(countFor('instagram', url).count).toBe(url.length);
  });

  it('weighs CJK and emoji as X does', () => {
    expect(countFor('x', '日本語').count).toBe(6);
    expect(countFor('x', '👍').count).toBe(2);
    expect(countFor('x', '👨‍👩‍👧‍👦').count).toBe(2);
    expect(countFor('x', 'abc').count).toBe(3);
    // 140 CJK characters fill an X post exactly; one more is over.
    expect(countFor('x', '字'.repeat(140))).toMatchObject({ count: 280, over: 0 });
    expect(countFor('x', '字'.repeat(141))).toMatchObject({ count: 282, over: 2 });
  });

  it('warns naming the platform and its number, and only for the platforms picked', () => {
    const long = 'a'.repeat(300);
    expect(platformWarnings(long, ['instagram'])).toEqual([]);
    const [x] = platformWarnings(long, ['x', 'instagram']);
    expect(x).toContain('X takes at most 280 characters');
    expect(x).toContain('300');
    expect(platformWarnings('a'.repeat(280), ['x'])).toEqual([]);
    expect(platformWarnings('a'.repeat(2100), ['linkedin', 'tiktok', 'instagram'])).toEqual([]);
  });
});

describe('feed folds and frames', () => {
  it("folds after the platform's characters or lines, whichever comes first", () => {
    expect(foldCaption('short', 'instagram')).toEqual({ shown: 'short', folded: false });
    const long = 'word '.repeat(60);
    const ig = foldCaption(long, 'instagram');
    expect(ig.folded).toBe(true);
    expect(ig.shown.length).toBeLessThanOrEqual(125);
    expect(foldCaption('one\ntwo\nthree', 'instagram')).toEqual({ shown: 'one\ntwo', folded: true });
    expect(foldCaption('one\ntwo\nthree', 'linkedin')).toEqual({ shown: 'one\ntwo\nthree', folded: false });
    expect(foldCaption(long, 'x').folded).toBe(false);
  });

  it('never cuts an emoji in half', () => {
    const text = `${'a'.repeat(124)}😀 and more text after it`;
    const { shown } = foldCaption(text, 'instagram');
    expect(shown).toBe('a'.repeat(124));
  });

  it("keeps the first image's shape within the platform's frame", () => {
    expect(frameFor('instagram', 1000, 2000)).toBeCloseTo(0.8);
    expect(frameFor('instagram', 4000, 1000)).toBeCloseTo(1.91);
    expect(frameFor('instagram', 1000, 1000)).toBe(1);
    expect(frameFor('tiktok', 1920, 1080)).toBeCloseTo(9 / 16);
    expect(frameFor('x')).toBe(1);
  });
});
