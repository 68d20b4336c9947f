/**
 * Run directories kept tidy: `postdesk runs prune` on a real data directory, and an executor that prunes
 * when it starts (real store, real directories, the executor's manual clock).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type RunPhase } from '../../src-main/core/executor/journal';
import { openStore, type Store } from '../../src-main/core/store/store';
import { cli, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const DAY = 86_400_000;
let dir = '';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** Journal rows that finished `daysAgo` before `now`, each with its run directory. */
function seed(store: Store, runsDir: string, runs: [RunPhase, number][], now = Date.now()): string[] {
  let at = now;
  const journal = new Journal(store, 'https://svc.test', () => new Date(at).toISOString());
  return runs.map(([state, daysAgo], i) => {
    at = now - daysAgo * DAY;
    const row = journal.insert({
      automationId: 'a1',
      automationName: 'Daily',
      queue: 'local',
      scheduledFor: new Date(at + i).toISOString(),
      revision: 1,
      state,
    });
    if (!row) throw new Error('not inserted');
    mkdirSync(join(runsDir, row.id), { recursive: true });
    return row.id;
  });
}

describe('postdesk runs prune', () => {
  it('removes what is past the retention settings; --dry-run only says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'runs-prune-'));
    const store = openStore(join(dir, 'postdesk.db'));
    const [fresh, old, failed, failedOld] = seed(store, join(dir, 'executor', 'runs'), [
      ['completed', 1],
      ['completed', 20],
      ['failed', 20],
      ['failed', 40],
    ]);
    store.close();
    const runDir = (id: string | undefined) => join(dir, 'executor', 'runs', id as string);

    const dry = await cli(dir, ['--json', 'runs', 'prune', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { removed: { id: string; why: string }[]; dry_run: boolean };
    expect(planned.dry_run).toBe(true);
    expect(planned.removed.map((r) => r.id).sort()).toEqual([old, failedOld].sort());
    expect(existsSync(runDir(old))).toBe(true);

    const res = await cli(dir, ['runs', 'prune']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).toMatch(/removed 2 run directories, kept 2/);
    for (const id of [fresh, failed]) expect(existsSync(runDir(id))).toBe(true);
    for (const id of [old, failedOld]) expect(existsSync(runDir(id))).toBe(false);

    const keep = await cli(dir, ['--json', 'runs', 'prune', '--keep', '1']);
    const kept = JSON.parse(keep.stdout) as { removed: { id: string; why: string }[] };
    expect(kept.removed).toEqual([{ id: fresh, why: 'count', failed: false }]);
    expect(existsSync(runDir(failed))).toBe(true);
  });

  it('refuses a count that is not a whole number', async () => {
    dir = mkdtempSync(join(tmpdir(), 'runs-prune-'));
    const res = await cli(dir, ['runs', 'prune', '--keep', 'lots']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/--keep must be a whole number, got "lots"/);
  });
});

describe('the executor prunes when it starts', () => {
  it('old run directories go at start, judged on the executor’s clock', async () => {
    h = await startHarness();
    const ex = h.another({ retention: () => ({ days: 14, failedDays: 30, maxCount: 500 }) });
    const runsDir = join(ex.dataDir, 'runs');
    // Finished 15 and 13 days before the executor's (virtual) now, which is not the real date.
    const [old, recent] = seed(
      ex.store,
      runsDir,
      [
        ['completed', 15],
        ['completed', 13],
      ],
      h.clock.now().getTime(),
    );
    ex.executor.start();
    const until = Date.now() + scaled(5000);
    while (existsSync(join(runsDir, old as string)) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(join(runsDir, old as string))).toBe(false);
    expect(existsSync(join(runsDir, recent as string))).toBe(true);
  });
});
