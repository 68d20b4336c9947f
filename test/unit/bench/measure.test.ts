import { describe, expect, it } from 'vitest';
import { median, p99, percentile, timeProcess, timeRounds, timeRoundsAsync } from '../../../bench/measure';

describe('bench percentiles', () => {
  it('take the nearest rank of the sorted samples, whatever their order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(p99(hundred)).toBe(100);
    expect(percentile(hundred, 0.95)).toBe(96);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('give NaN for no samples, a figure no goal is met by', () => {
    expect(median([])).toBeNaN();
    expect(p99([])).toBeNaN();
  });
});

describe('bench timers', () => {
  it('time rounds after one untimed call', async () => {
    let calls = 0;
    expect(timeRounds(3, () => (calls += 1))).toBeGreaterThanOrEqual(0);
    expect(calls).toBe(4);
    let asyncCalls = 0;
    expect(await timeRoundsAsync(2, async () => (asyncCalls += 1))).toBeGreaterThanOrEqual(0);
    expect(asyncCalls).toBe(3);
  });

  it('time a real process to its exit, with its code and what it printed', async () => {
    const r = await timeProcess(process.execPath, [
      '-e',
      'console.log("out"); console.error("err"); process.exit(3)',
    ]);
    expect(r).toMatchObject({ code: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(r.ms).toBeGreaterThan(0);
    await expect(timeProcess('/nonexistent/program', [])).rejects.toThrow(/ENOENT/);
  });
});
