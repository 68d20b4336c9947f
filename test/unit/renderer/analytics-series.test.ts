import { describe, expect, it } from 'vitest';
import {
  changeFrom,
  engagementRate,
  fillDays,
  niceTicks,
} from '../../../src-renderer/src/features/analytics/series';

const m = (impressions: number, likes = 0) => ({ impressions, likes, comments: 0, shares: 0 });

describe('analytics series', () => {
  it('fills the days the service did not list with zeros, in order', () => {
    const days = fillDays(
      [
        { date: '2026-03-04', ...m(5) },
        { date: '2026-03-01', ...m(3) },
      ],
      { start: null, end: null },
    );
    expect(days.map((d) => [d.date, d.impressions])).toEqual([
      ['2026-03-01', 3],
      ['2026-03-02', 0],
      ['2026-03-03', 0],
      ['2026-03-04', 5],
    ]);
  });

  it('spans a chosen range end to end, and stops at its cap', () => {
    const start = new Date(2026, 2, 1).toISOString();
    const end = new Date(2026, 2, 8).toISOString();
    const days = fillDays([{ date: '2026-03-03', ...m(1) }], { start, end });
    expect(days).toHaveLength(7);
    expect(days[0]!.date).toBe('2026-03-01');
    expect(days.at(-1)!.date).toBe('2026-03-07');
    expect(fillDays([], { start, end }, 3)).toHaveLength(3);
  });

  it('ticks are round and cover the largest value', () => {
    expect(niceTicks(2900)).toEqual([0, 1000, 2000, 3000]);
    expect(niceTicks(950)).toEqual([0, 250, 500, 750, 1000]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });

  it('engagement rate and change need something to divide by', () => {
    expect(engagementRate({ impressions: 200, likes: 10, comments: 4, shares: 6 })).toBeCloseTo(0.1);
    expect(engagementRate(m(0))).toBeNull();
    expect(changeFrom(120, 100)).toBeCloseTo(0.2);
    expect(changeFrom(5, 0)).toBeNull();
    expect(changeFrom(5, null)).toBeNull();
  });
});
