import { describe, expect, it } from 'vitest';
import { createManualClock, createPolledClock } from '../../../../src-main/core/executor/clock';

describe('clocks', () => {
  it('a manual clock releases sleepers when it is moved past their time, and honours abort', async () => {
    const clock = createManualClock(new Date('2030-01-01T00:00:00Z'));
    const woke: string[] = [];
    void clock.sleep(1000).then(() => woke.push('1s'));
    void clock.sleep(5000).then(() => woke.push('5s'));
    const ac = new AbortController();
    const aborted = clock.sleep(3000, ac.signal).catch(() => 'aborted');
    clock.advance(999);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.advance(1);
    await Promise.resolve();
    expect(woke).toEqual(['1s']);
    ac.abort();
    expect(await aborted).toBe('aborted');
    clock.set(new Date('2030-01-01T00:00:10Z'));
    await Promise.resolve();
    expect(woke).toEqual(['1s', '5s']);
    expect(() => clock.set(new Date('2029-01-01T00:00:00Z'))).toThrow();
  });

  it('a polled clock follows its source, never backwards, and wakes sleepers as the source moves', async () => {
    let source = new Date('2030-01-01T00:00:00Z').getTime();
    const clock = createPolledClock(async () => new Date(source), 5);
    await clock.start();
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
    let woke = false;
    const sleeping = clock.sleep(60_000).then(() => (woke = true));
    source += 30_000;
    await new Promise((r) => setTimeout(r, 30));
    expect(woke).toBe(false);
    source += 30_000;
    await sleeping;
    expect(clock.now().toISOString()).toBe('2030-01-01T00:01:00.000Z');
    source -= 10_000;
    await new Promise((r) => setTimeout(r, 30));
    expect(clock.now().toISOString()).toBe('2030-01-01T00:01:00.000Z');
    clock.stop();
  });
});
