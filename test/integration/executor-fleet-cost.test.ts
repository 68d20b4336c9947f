/**
 * What a fleet executor spends per pass (docs/executor.md, "Running a fleet"): the full fleet bench (20
 * executors, 500 automations) stalled after its first minute because each executor's passes cost per
 * automation, not per schedule, and because every race lost to another executor asked for a sync that put
 * the next minute's starts behind it. Both are held here on the real sandbox, over HTTP, with real stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src-main/core/api/client';
import { automation, startHarness, type Harness } from './executor-harness';

const MINUTE = 60_000;
let h: Harness | undefined;
const restore: (() => void)[] = [];
afterEach(async () => {
  for (const undo of restore.splice(0)) undo();
  await h?.close();
  h = undefined;
});

const idOf = (i: number) => `0b6e7f52-8a3c-4d1e-9f20-${String(i).padStart(12, '0')}`;

/** Counts the time-zone formatters built while it is installed (croner builds one per conversion). */
function countFormatters(): { readonly built: number } {
  const Real = Intl.DateTimeFormat;
  const counter = { built: 0 };
  Intl.DateTimeFormat = new Proxy(Real, {
    construct(target, args: unknown[]) {
      counter.built += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  restore.push(() => {
    Intl.DateTimeFormat = Real;
  });
  return counter;
}

/** The real client, with the name of every call it is asked for noted in order (still sent over HTTP). */
function noting(api: ApiClient, calls: string[]): ApiClient {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a fleet executor pass', () => {
  it('costs per schedule, not per automation: 150 automations on 3 schedules build few time-zone formatters', async () => {
    const zones = ['America/New_York', 'Asia/Kathmandu', 'Europe/Berlin'];
    const automations = Array.from({ length: 150 }, (_, i) =>
      automation({
        id: idOf(i),
        name: `Weekday ${i}`,
        schedule: { cron: '0 9 * * 1-5', timezone: zones[i % zones.length] },
      }),
    );
    h = await startHarness({ automations, executor: { syncIntervalMs: 3_600_000 } });
    // Registers, acknowledges the 150 revisions, and takes the first sight of each schedule.
    await h.executor.runOnce();
    await h.advance(MINUTE);
    const formatters = countFormatters();
    // One pass (every automation's occurrences since its cursor, and the next wake) and the status the
    // daemon writes every few seconds (the soonest next occurrence).
    await h.executor.runOnce();
    h.executor.nextOccurrenceAt();
    h.executor.nextOccurrenceAt();
    const built = formatters.built;
    // Before: croner was asked once per automation for each of these, each answer several formatters
    // (over 2,000 here). Each formatter's ICU memory lives outside V8's heap, so hundreds of passes grew an
    // executor's RSS by hundreds of MiB before a collection.
    expect(built, `${built} formatters for 150 automations on 3 schedules in one pass`).toBeLessThan(
      automations.length / 2,
    );
    expect(h.executor.journal.list({ limit: 1000 })).toHaveLength(0);
  });

  it('a race lost to another executor asks no sync: the next minute still starts before it syncs', async () => {
    const automations = Array.from({ length: 6 }, (_, i) =>
      automation({
        id: idOf(i),
        name: `Every minute ${i}`,
        schedule: { cron: '* * * * *', timezone: 'UTC' },
      }),
    );
    // A sync interval longer than the minute: the list synced at a minute is fresh at the next one.
    h = await startHarness({ automations, executor: { syncIntervalMs: 5 * MINUTE, concurrency: 6 } });
    const harness = h;
    const calls = [[], []] as string[][];
    const fleet = calls.map((c) => harness.another({ api: noting(harness.api, c) }).executor);
    for (const e of fleet) await e.runOnce();
    for (const e of fleet) e.start();
    const completed = async () => (await harness.sb.control.state()).runs['completed'] ?? 0;

    await harness.advance(MINUTE);
    await until('the first minute', async () => (await completed()) === 6);
    await until('both executors idle', () => fleet.every((e) => e.status().activeRuns === 0));
    const lost = fleet.map(
      (e) => e.journal.list({ limit: 100 }).filter((r) => r.reason_code === 'other_executor').length,
    );
    expect(
      lost.reduce((a, b) => a + b),
      `races lost: ${lost.join(', ')}`,
    ).toBe(6);

    for (const c of calls) c.length = 0;
    await harness.advance(MINUTE);
    await until('the second minute', async () => (await completed()) === 12);
    for (const [i, c] of calls.entries()) {
      const first = c.find((k) => k === 'startRun' || k === 'syncAutomations');
      // Before: every RUN_CONFLICT asked for a sync, so a fleet executor (which loses most races) began
      // every minute with the whole list, in front of its first start.
      expect(first, `executor ${i} (lost ${lost[i]} races) began the minute with: ${c.join(', ')}`).toBe(
        'startRun',
      );
      // Before: a conflict that came back while a pass ran had the loop go again at once, a whole sync more.
      expect(
        c.filter((k) => k === 'syncAutomations').length,
        `executor ${i}'s calls in the minute: ${c.join(', ')}`,
      ).toBeLessThanOrEqual(1);
    }
    const state = await harness.sb.control.state();
    expect(state.runs).toEqual({ completed: 12 });
  });
});
