import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retry } from '../../../../src-main/core/common/retry';

class Flaky extends Error {}

/** A task that fails `failures` times with numbered errors, then answers with the try that succeeded. */
function failing(failures: number): { fn: (attempt: number) => Promise<number>; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    fn: async (attempt) => {
      calls.push(attempt);
      if (calls.length <= failures) throw new Flaky(`failure ${calls.length}`);
      return attempt;
    },
  };
}

describe('retry', () => {
  it('tries again until the task succeeds, telling onRetry which try failed', async () => {
    const t = failing(2);
    const retried: [string, number][] = [];
    const result = await retry(t.fn, {
      attempts: 5,
      minDelayMs: 1,
      maxDelayMs: 2,
      onRetry: (e, attempt) => void retried.push([(e as Error).message, attempt]),
    });
    expect(result).toBe(3);
    expect(t.calls).toEqual([1, 2, 3]);
    expect(retried).toEqual([
      ['failure 1', 1],
      ['failure 2', 2],
    ]);
  });

  it('gives up after `attempts` tries with the last error, and does not announce a retry that never comes', async () => {
    const t = failing(10);
    const onRetry = vi.fn();
    const error = await retry(t.fn, { attempts: 3, minDelayMs: 1, maxDelayMs: 1, onRetry }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Flaky);
    expect((error as Error).message).toBe('failure 3');
    expect(t.calls).toEqual([1, 2, 3]);
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('stops at once on a failure shouldRetry refuses', async () => {
    const t = failing(10);
    const onRetry = vi.fn();
    const seen: unknown[] = [];
    const error = await retry(t.fn, {
      attempts: 5,
      minDelayMs: 1,
      maxDelayMs: 1,
      shouldRetry: (e) => {
        seen.push(e);
        return (e as Error).message !== 'failure 2';
      },
      onRetry,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('failure 2');
    expect(t.calls).toEqual([1, 2]);
    expect(seen).toHaveLength(2);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('tries once when attempts is 1 or less', async () => {
    const t = failing(1);
    await expect(retry(t.fn, { attempts: 0, minDelayMs: 1, maxDelayMs: 1 })).rejects.toThrow('failure 1');
    expect(t.calls).toEqual([1]);
  });

  it('never retries a TypeError (a bug in the caller, not a failure of the far side)', async () => {
    let calls = 0;
    const fn = async (): Promise<never> => {
      calls += 1;
      throw new TypeError('x is not a function');
    };
    await expect(retry(fn, { attempts: 4, minDelayMs: 1, maxDelayMs: 1 })).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
  });
});

describe('retry timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // The jitter multiplies each delay by [1, 2): at its lowest the waits are exactly min * 2^n.
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('waits minDelay, then twice as long each time, never more than maxDelay', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    const done = retry(
      async () => {
        starts.push(Date.now() - t0);
        if (starts.length < 5) throw new Flaky('not yet');
        return 'ok';
      },
      { attempts: 5, minDelayMs: 100, maxDelayMs: 300 },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(done).resolves.toBe('ok');
    expect(starts).toEqual([0, 100, 300, 600, 900]);
  });

  it('lets onRetry wait longer before the backoff (Retry-After)', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    const done = retry(
      async () => {
        starts.push(Date.now() - t0);
        if (starts.length < 2) throw new Flaky('busy');
        return 'ok';
      },
      {
        attempts: 3,
        minDelayMs: 100,
        maxDelayMs: 100,
        onRetry: () => new Promise((r) => setTimeout(r, 5_000)),
      },
    );
    await vi.advanceTimersByTimeAsync(5_099);
    expect(starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe('ok');
    expect(starts).toEqual([0, 5_100]);
  });

  it('stops waiting when the signal aborts, with the abort reason', async () => {
    const ac = new AbortController();
    let calls = 0;
    const done = retry(
      async () => {
        calls += 1;
        throw new Flaky('down');
      },
      { attempts: 5, minDelayMs: 1_000, maxDelayMs: 1_000, signal: ac.signal },
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    ac.abort(new Error('cancelled by the user'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(((await done) as Error).message).toBe('cancelled by the user');
    expect(calls).toBe(1);
  });
});
