import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLimit } from '../../../../src-main/core/common/limit';

/** Runs `n` tasks through the limit and records how many ran at once and in which order they started. */
async function observe(concurrency: number, n: number) {
  const limit = createLimit(concurrency);
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      limit(async () => {
        started.push(i);
        running += 1;
        peak = Math.max(peak, running);
        // Later tasks finish sooner, so order of results is not order of completion.
        await sleep(2 + (n - i));
        running -= 1;
        return i * 10;
      }),
    ),
  );
  return { results, peak, started };
}

describe('createLimit', () => {
  it('runs at most n at once, starts them in the order given, and answers each caller with its own result', async () => {
    const { results, peak, started } = await observe(3, 10);
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('treats a concurrency below one as one, and a fraction as its whole part', async () => {
    expect((await observe(0, 4)).peak).toBe(1);
    expect((await observe(-3, 4)).peak).toBe(1);
    expect((await observe(2.9, 6)).peak).toBe(2);
  });

  it('hands a failed task’s slot to the next one and rejects only that caller', async () => {
    const limit = createLimit(1);
    const failed = limit(async () => {
      throw new Error('broken');
    });
    const next = limit(async () => 'still runs');
    await expect(failed).rejects.toThrow('broken');
    await expect(next).resolves.toBe('still runs');
  });
});
