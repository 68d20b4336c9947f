import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../src-main/core/executor/clock';
import { Journal, type RunPhase } from '../../../../src-main/core/executor/journal';
import { pruneRuns, schedulePruning, type RetentionPolicy } from '../../../../src-main/core/executor/prune';
import { openStore, type Store } from '../../../../src-main/core/store/store';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const POLICY: RetentionPolicy = { days: 14, failedDays: 30, maxCount: 500 };

let dir = '';
let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A data directory whose journal rows finish at the times given, each with a real run directory. */
function setup() {
  dir = mkdtempSync(join(tmpdir(), 'prune-'));
  store = openStore(join(dir, 'postdesk.db'));
  let now = T0;
  const journal = new Journal(store, 'https://svc.test', () => new Date(now).toISOString());
  const runsDir = join(dir, 'executor', 'runs');
  let n = 0;
  const run = (state: RunPhase, finishedDaysAgo: number) => {
    now = T0 - finishedDaysAgo * DAY;
    n += 1;
    const row = journal.insert({
      automationId: 'a1',
      automationName: 'Daily',
      queue: 'local',
      scheduledFor: new Date(now + n).toISOString(),
      revision: 1,
      state,
    });
    if (!row) throw new Error('not inserted');
    const runDir = join(runsDir, row.id);
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, 'run.log'), 'x\n');
    now = T0;
    return row.id;
  };
  return { journal, runsDir, run };
}

describe('pruneRuns (real directories, journal times)', () => {
  it('removes finished runs past 14 days and failed ones past 30; keeps the rest and every unfinished run', async () => {
    const { journal, runsDir, run } = setup();
    const recent = run('completed', 13);
    const old = run('completed', 15);
    const failedRecent = run('failed', 20);
    const failedOld = run('failed', 31);
    const running = run('running', 400);
    const result = await pruneRuns({ runsDir, journal, policy: POLICY, now: new Date(T0) });
    expect(result.removed.map((r) => r.localId).sort()).toEqual([old, failedOld].sort());
    expect(result.removed.every((r) => r.why === 'age')).toBe(true);
    for (const id of [recent, failedRecent, running]) expect(existsSync(join(runsDir, id))).toBe(true);
    for (const id of [old, failedOld]) expect(existsSync(join(runsDir, id))).toBe(false);
    expect(result.kept).toBe(3);
  });

  it('beyond the count, the oldest go first and failed runs last', async () => {
    const { journal, runsDir, run } = setup();
    const failedOldest = run('failed', 10);
    const a = run('completed', 9);
    const b = run('completed', 8);
    const c = run('completed', 1);
    const result = await pruneRuns({
      runsDir,
      journal,
      policy: { ...POLICY, maxCount: 2 },
      now: new Date(T0),
    });
    expect(result.removed.map((r) => [r.localId, r.why])).toEqual([
      [a, 'count'],
      [b, 'count'],
    ]);
    expect(existsSync(join(runsDir, failedOldest))).toBe(true);
    expect(existsSync(join(runsDir, c))).toBe(true);
  });

  it('a directory the journal does not know is judged by its age on disk; other names are never touched', async () => {
    const { journal, runsDir } = setup();
    const orphan = join(runsDir, '0b6f7a4e-6f0e-4a53-9d7e-0c1f2a3b4c5d');
    const mine = join(runsDir, 'notes');
    mkdirSync(orphan, { recursive: true });
    mkdirSync(mine);
    const old = new Date(T0 - 20 * DAY);
    utimesSync(orphan, old, old);
    utimesSync(mine, old, old);
    const result = await pruneRuns({ runsDir, journal, policy: POLICY, now: new Date(T0) });
    expect(result.removed.map((r) => r.dir)).toEqual([orphan]);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });

  it('a dry run removes nothing and says what it would remove', async () => {
    const { journal, runsDir, run } = setup();
    const old = run('completed', 15);
    const result = await pruneRuns({ runsDir, journal, policy: POLICY, now: new Date(T0), dryRun: true });
    expect(result.removed.map((r) => r.localId)).toEqual([old]);
    expect(existsSync(join(runsDir, old))).toBe(true);
  });

  it('no runs directory yet: nothing to do', async () => {
    const { journal } = setup();
    const result = await pruneRuns({
      runsDir: join(dir, 'missing'),
      journal,
      policy: POLICY,
      now: new Date(T0),
    });
    expect(result).toEqual({ removed: [], kept: 0 });
  });
});

describe('schedulePruning (manual clock)', () => {
  it('prunes at start, then again when the clock has moved six hours', async () => {
    const { journal, runsDir, run } = setup();
    const clock = createManualClock(new Date(T0));
    const old = run('completed', 15);
    const soon = run('completed', 13.9);
    const lines: string[] = [];
    const pruning = schedulePruning({
      runsDir,
      journal,
      clock,
      policy: () => POLICY,
      log: (l) => lines.push(l),
    });
    await waitFor(() => !existsSync(join(runsDir, old)));
    expect(existsSync(join(runsDir, soon))).toBe(true);
    expect(lines).toEqual(['removed 1 old run directory']);
    // 0.1 day (2.4 h) later it is past 14 days, but the next round is six hours after the first.
    clock.advance(3 * 3_600_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(join(runsDir, soon))).toBe(true);
    clock.advance(3 * 3_600_000);
    await waitFor(() => !existsSync(join(runsDir, soon)));
    pruning.stop();
    await pruning.done;
  });
});

async function waitFor(ok: () => boolean): Promise<void> {
  const until = Date.now() + 3000;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
