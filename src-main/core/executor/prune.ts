import { join } from 'node:path';
import type { Settings } from '../../../src-shared/settings';
import type { Clock } from './clock';
import { TERMINAL_PHASES, type Journal } from './journal';
import { lstatPath, readDir, removePath } from '../files';

/** How long run directories are kept (the `runRetention*` settings). */
export interface RetentionPolicy {
  readonly days: number;
  /** Failed runs are kept longer: their logs are what a person reads to find out why. */
  readonly failedDays: number;
  /** At most this many finished run directories; beyond it the oldest go, failed ones last. */
  readonly maxCount: number;
}

export const retentionOf = (s: Readonly<Settings>): RetentionPolicy => ({
  days: s.runRetentionDays,
  failedDays: s.failedRunRetentionDays,
  maxCount: s.runRetentionCount,
});

export interface PrunedRun {
  readonly localId: string;
  readonly dir: string;
  readonly why: 'age' | 'count';
  readonly failed: boolean;
}

export interface PruneResult {
  readonly removed: readonly PrunedRun[];
  readonly kept: number;
}

const DAY = 86_400_000;
/** Run directories are named by the journal's local id; nothing else in `runs/` is touched. */
const LOCAL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Candidate {
  readonly localId: string;
  readonly dir: string;
  readonly at: number;
  readonly failed: boolean;
}

/**
 * Removes the run directories that are past their retention, then the oldest beyond the count. A run
 * that is not finished is never touched, whatever its age. A directory the journal does not know
 * (left by a store that was reset) is judged by its modification time.
 */
export async function pruneRuns(o: {
  readonly runsDir: string;
  readonly journal: Journal;
  readonly policy: RetentionPolicy;
  readonly now: Date;
  readonly dryRun?: boolean;
}): Promise<PruneResult> {
  let names: string[];
  try {
    names = await readDir(o.runsDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { removed: [], kept: 0 };
    throw err;
  }
  const candidates: Candidate[] = [];
  let active = 0;
  for (const name of names) {
    if (!LOCAL_ID.test(name)) continue;
    const dir = join(o.runsDir, name);
    const st = await lstatPath(dir).catch(() => null);
    if (!st) continue;
    const row = o.journal.get(name);
    if (row && !TERMINAL_PHASES.includes(row.state)) {
      active += 1;
      continue;
    }
    const finished = row?.finished_at ?? row?.updated_at;
    candidates.push({
      localId: name,
      dir,
      at: finished ? Date.parse(finished) : st.mtimeMs,
      failed: row?.state === 'failed',
    });
  }
  const now = o.now.getTime();
  const removed: PrunedRun[] = [];
  const fresh: Candidate[] = [];
  for (const c of candidates) {
    const limit = (c.failed ? o.policy.failedDays : o.policy.days) * DAY;
    if (now - c.at > limit) removed.push({ localId: c.localId, dir: c.dir, why: 'age', failed: c.failed });
    else fresh.push(c);
  }
  // Beyond the count: the oldest successful runs go first, failed ones only when no other is left.
  const excess = fresh.length - o.policy.maxCount;
  if (excess > 0) {
    const order = [...fresh].sort((a, b) => Number(a.failed) - Number(b.failed) || a.at - b.at);
    for (const c of order.slice(0, excess))
      removed.push({ localId: c.localId, dir: c.dir, why: 'count', failed: c.failed });
  }
  if (!o.dryRun) {
    for (const r of removed) await removePath(r.dir, { recursive: true });
  }
  return { removed, kept: active + candidates.length - removed.length };
}

/** Every six hours of the executor's clock, and once at start. */
export const PRUNE_EVERY_MS = 6 * 3_600_000;

/**
 * Prunes at start and then periodically until stopped. A failure is reported and the next round tries
 * again: a tidy runs directory is never worth stopping the executor for.
 */
export function schedulePruning(o: {
  readonly runsDir: string;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly policy: () => RetentionPolicy;
  readonly everyMs?: number;
  readonly log?: (line: string) => void;
}): { stop(): void; readonly done: Promise<void> } {
  const abort = new AbortController();
  const done = (async () => {
    while (!abort.signal.aborted) {
      try {
        const r = await pruneRuns({ ...o, policy: o.policy(), now: o.clock.now() });
        if (r.removed.length > 0)
          o.log?.(`removed ${r.removed.length} old run director${r.removed.length === 1 ? 'y' : 'ies'}`);
      } catch (err) {
        o.log?.(`pruning run directories failed: ${(err as Error).message}`);
      }
      try {
        await o.clock.sleep(o.everyMs ?? PRUNE_EVERY_MS, abort.signal);
      } catch {
        return;
      }
    }
  })();
  return { stop: () => abort.abort(), done };
}
