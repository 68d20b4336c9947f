import type { Automation } from '../../../src-shared/api';
import { runInfo, type ExecutorState, type ExecutorStatus, type RunInfo } from './executor-events';
import type { AutomationSync } from './sync';
import type { Journal } from './journal';
import type { RunPump } from './run-pump';
import { nextOccurrence } from './occurrences';

/** What the executor is doing when nothing has just happened to it: the first of these that holds. */
export function settledState(s: {
  readonly stopping: boolean;
  readonly paused: boolean;
  readonly registering: boolean;
  readonly syncFailures: number;
  readonly activeRuns: number;
}): ExecutorState {
  if (s.stopping) return 'stopping';
  if (s.paused) return 'paused';
  if (s.registering) return 'registering';
  if (s.syncFailures > 0) return 'offline';
  return s.activeRuns > 0 ? 'running' : 'idle';
}

/** The states the app shows: offline counts as idle (the last error says why), stopping as running. */
export function shownState(
  current: ExecutorState,
  activeRuns: number,
): 'stopped' | 'registering' | 'idle' | 'running' | 'paused' {
  switch (current) {
    case 'offline':
      return activeRuns > 0 ? 'running' : 'idle';
    case 'stopping':
      return activeRuns > 0 ? 'running' : 'stopped';
    default:
      return current;
  }
}

/** Why a run still going when the grace period of a stop ended was cancelled. */
export function stopCancelText(graceMs: number, reason: string | undefined): string {
  const grace = graceMs < 1000 ? `${graceMs} ms` : `${Math.round(graceMs / 1000)} s`;
  return `${reason ?? 'the executor was stopped'} and the run did not finish within the ${grace} grace period`;
}

/** The soonest next occurrence among the active local automations (null with none): what status shows. */
export function soonestLocalOccurrence(automations: Iterable<Automation>, now: Date): string | null {
  let soonest: Date | null = null;
  for (const a of automations) {
    if (a.status !== 'active' || a.queue !== 'local') continue;
    const n = nextOccurrence(a.schedule, now);
    if (n && (!soonest || n < soonest)) soonest = n;
  }
  return soonest?.toISOString() ?? null;
}

/** The runs in flight, as the journal has them now. */
export function activeRunInfos(pump: Pick<RunPump, 'activeIds'>, journal: Pick<Journal, 'get'>): RunInfo[] {
  return pump.activeIds().flatMap((id) => {
    const row = journal.get(id);
    return row ? [runInfo(row)] : [];
  });
}

/** The executor's status as its events and `postdesk executor status` report it. */
export function statusOf(
  current: ExecutorState,
  sync: Pick<AutomationSync, 'executorId' | 'lastSyncAt' | 'lastError' | 'automations'>,
  activeRuns: number,
): ExecutorStatus {
  const { executorId, lastSyncAt, lastError } = sync;
  return {
    state: current,
    executorId,
    lastSyncAt,
    lastError,
    activeRuns,
    automations: sync.automations.size,
  };
}
