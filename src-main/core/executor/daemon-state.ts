import { dirname, join } from 'node:path';
import { z } from 'zod';
import { isProcessAlive } from '../common/process-alive';
import { ensurePrivateDirSync, readTextFileSync, removePathSync, writePrivateFileSync } from '../files';
import type { Executor } from './executor';
import { EXECUTOR_STATES } from './executor-events';

/**
 * What a running `postdesk executor` daemon says of itself, for `postdesk executor status` in another process:
 * no secret, only what the daemon's own output already shows.
 */
export const DaemonState = z.object({
  pid: z.number().int().positive(),
  state: z.enum(EXECUTOR_STATES),
  name: z.string(),
  executor_id: z.string().nullable(),
  last_sync_at: z.string().nullable(),
  next_occurrence_at: z.string().nullable(),
  last_error: z.string().nullable(),
  active_runs: z.number().int().nonnegative(),
  updated_at: z.string(),
});
export type DaemonState = z.infer<typeof DaemonState>;

/** The daemon's state file, in the executor's folder of the data directory. */
export const daemonStateFile = (executorDir: string): string => join(executorDir, 'daemon.json');

/**
 * Where `postdesk executor drain` asks the daemon of this data directory to drain, without a network port:
 * it names the daemon's pid, so a request left behind is not obeyed by the next daemon.
 */
export const drainRequestFile = (executorDir: string): string => join(executorDir, 'drain-request.json');

const DrainRequest = z.object({ pid: z.number().int().positive() });

export function requestDrain(file: string, pid: number): void {
  ensurePrivateDirSync(dirname(file));
  writePrivateFileSync(file, `${JSON.stringify({ pid })}\n`);
}

/** Whether a drain request for this process waits in the file; any request found is consumed. */
function takeDrainRequest(file: string): boolean {
  let text: string;
  try {
    text = readTextFileSync(file);
  } catch {
    return false;
  }
  removePathSync(file);
  const parsed = DrainRequest.safeParse(
    (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    })(),
  );
  return parsed.success && parsed.data.pid === process.pid;
}

/**
 * Replaces the file in one step (a private temp file renamed over it), so a reader sees the old state or the
 * new one, never half of one; the temp file is 0600 from its creation.
 */
export function writeDaemonState(file: string, state: DaemonState): void {
  ensurePrivateDirSync(dirname(file));
  writePrivateFileSync(file, `${JSON.stringify(state)}\n`);
}

export type DaemonReading =
  | { readonly kind: 'none' }
  /** The file names a process that is gone (killed, crashed): what it said last, not what runs now. */
  | { readonly kind: 'stale'; readonly state: DaemonState }
  | { readonly kind: 'live'; readonly state: DaemonState }
  | { readonly kind: 'unreadable'; readonly problem: string };

/** Reads the state file and tells a live daemon's from one a dead process left behind. */
export function readDaemonState(
  file: string,
  alive: (pid: number) => boolean = isProcessAlive,
): DaemonReading {
  let text: string;
  try {
    text = readTextFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return { kind: 'unreadable', problem: (err as Error).message };
  }
  let parsed: DaemonState;
  try {
    parsed = DaemonState.parse(JSON.parse(text));
  } catch {
    return { kind: 'unreadable', problem: 'the file is not a daemon state this version understands' };
  }
  return { kind: alive(parsed.pid) ? 'live' : 'stale', state: parsed };
}

const snapshot = (executor: Executor, now: Date, nextOccurrenceAt: string | null): DaemonState => {
  const s = executor.status();
  return {
    pid: process.pid,
    state: s.state,
    name: executor.name,
    executor_id: s.executorId,
    last_sync_at: s.lastSyncAt,
    next_occurrence_at: nextOccurrenceAt,
    last_error: s.lastError,
    active_runs: s.activeRuns,
    updated_at: now.toISOString(),
  };
};

/**
 * Keeps the daemon's state file current: at once on every change of state, and at each `everyMs` when what it
 * says changed (a sync, a run). `stop()` removes the file if it is still this process's, so a daemon that ended
 * well leaves none; one that was killed leaves a file whose pid is dead, which readers call stale.
 */
export function keepDaemonState(
  executor: Executor,
  file: string,
  o: {
    readonly everyMs?: number;
    readonly onError?: (err: unknown) => void;
    /** The drain request file to watch (see `drainRequestFile`), and what to do when one names this process. */
    readonly drain?: { readonly file: string; readonly onRequest: () => void };
  } = {},
): { stop(): void } {
  let last = '';
  let failed = false;
  // The next occurrence moves only when it passes or a pass (a sync, a run) changes what the executor knows, so it
  // is computed again then, not every second: croner builds `Intl.DateTimeFormat`s for each computation, whose ICU
  // objects live outside V8's heap until a GC an idle daemon rarely has (about 6 MiB of RSS a minute; docs/executor.md).
  let next: { readonly key: string; readonly at: string | null } | null = null;
  const nextOccurrenceAt = (now: Date): string | null => {
    const s = executor.status();
    const key = JSON.stringify([s.state, s.lastSyncAt, s.activeRuns, executor.nextSyncAt()]);
    if (!next || next.key !== key || (next.at !== null && now.getTime() >= Date.parse(next.at)))
      next = { key, at: executor.nextOccurrenceAt() };
    return next.at;
  };
  // A request left by an earlier daemon is stale: this one starts fresh.
  if (o.drain) takeDrainRequest(o.drain.file);
  const write = (): void => {
    if (o.drain && takeDrainRequest(o.drain.file)) o.drain.onRequest();
    const now = new Date();
    const state = snapshot(executor, now, nextOccurrenceAt(now));
    const { updated_at: _at, ...what } = state;
    const key = JSON.stringify(what);
    if (key === last) return;
    try {
      writeDaemonState(file, state);
      last = key;
      failed = false;
    } catch (err) {
      // Said once per spell of failures: a full disk must not flood the log every second.
      if (!failed) o.onError?.(err);
      failed = true;
    }
  };
  write();
  const sub = executor.onDidChangeState(() => write());
  const timer = setInterval(write, o.everyMs ?? 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sub.dispose();
      const mine = readDaemonState(file, () => true);
      if (mine.kind !== 'none' && mine.kind !== 'unreadable' && mine.state.pid === process.pid)
        removePathSync(file);
    },
  };
}
