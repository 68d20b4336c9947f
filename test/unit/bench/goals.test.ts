import { describe, expect, it } from 'vitest';
import { compare, loadGoals } from '../../../bench/goals';

describe('bench goals', () => {
  it('the committed goals file parses, and every goal is a ratio or a memory figure, never a time', () => {
    const goals = loadGoals();
    expect(goals.size).toBeGreaterThan(5);
    for (const [id, g] of goals) expect([id, g.unit]).not.toEqual([id, 'ms']);
  });

  it('an at-most goal is met at the goal, tolerated just past it, and missed past the tolerance', () => {
    const g = { what: 'x', at_most: 2, tolerance: 0.1, unit: 'x' };
    expect(compare('a', g, 2)).toMatchObject({ met: true, failed: false });
    expect(compare('a', g, 2.19)).toMatchObject({ met: false, failed: false });
    expect(compare('a', g, 2.21)).toMatchObject({ met: false, failed: true });
    expect(compare('a', g, Number.NaN)).toMatchObject({ failed: true });
  });

  it('an at-most 0 goal (a count that must be none) misses at the first one, whatever the tolerance', () => {
    const g = { what: 'duplicates', at_most: 0, tolerance: 0.5, unit: '' };
    expect(compare('d', g, 0)).toMatchObject({ met: true, failed: false });
    expect(compare('d', g, 1)).toMatchObject({ met: false, failed: true });
  });

  it('an at-least goal mirrors it', () => {
    const g = { what: 'x', at_least: 0.9, tolerance: 0.1, unit: 'x' };
    expect(compare('b', g, 0.95)).toMatchObject({ met: true, failed: false });
    expect(compare('b', g, 0.82)).toMatchObject({ met: false, failed: false });
    expect(compare('b', g, 0.8)).toMatchObject({ met: false, failed: true });
  });
});
