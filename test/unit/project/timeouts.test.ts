import { describe, expect, it } from 'vitest';
import { appliedFactor } from '../../helpers/scale-timeouts';
import { MAX_FACTOR, TIMEOUTS, loadFactor, runFactor, scaled } from '../../helpers/timeouts';

/**
 * The suite's time limits follow the machine's load (test/helpers/timeouts.ts): an idle machine keeps the bases, a
 * loaded one gets more time in proportion, and a hung test still ends.
 */

describe('the load factor', () => {
  it('is the load per core, between 1 and the cap', () => {
    expect(loadFactor(0.3, 2)).toBe(1);
    expect(loadFactor(2, 2)).toBe(1);
    expect(loadFactor(5, 2)).toBe(2.5);
    expect(loadFactor(7.5, 2)).toBe(3.75);
    expect(loadFactor(40, 2)).toBe(MAX_FACTOR);
    expect(loadFactor(5, 0)).toBe(MAX_FACTOR);
  });

  it('is at least the factor the run was told it shares the machine with, within the same bounds', () => {
    expect(runFactor(0.3, 2)).toBe(2);
    expect(runFactor(7.5, 2)).toBe(3.75);
    expect(runFactor(0.3, 1)).toBe(1);
    expect(runFactor(0.3, 0)).toBe(1);
    expect(runFactor(0.3, Number.NaN)).toBe(1);
    expect(runFactor(0.3, 9)).toBe(MAX_FACTOR);
  });

  it('scales a limit to whole ms', () => {
    expect(scaled(30_000, 1)).toBe(30_000);
    expect(scaled(30_000, 2.5)).toBe(75_000);
    expect(scaled(5_000, 1.333)).toBe(6_665);
  });
});

describe('the limits of this very file', () => {
  it('are the bases times the load when it started', ({ task }) => {
    expect(appliedFactor).toBeGreaterThanOrEqual(1);
    expect(appliedFactor).toBeLessThanOrEqual(MAX_FACTOR);
    expect(task.timeout).toBe(scaled(TIMEOUTS.test, appliedFactor));
  });
});
