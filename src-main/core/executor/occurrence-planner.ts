import type { Automation } from '../../../src-shared/api';
import { errorText } from '../common/error-text';
import type { JournalAutomation, JournalRun, NewRun, ReasonCode } from './journal';
import { nextOccurrence, occurrencesBetween, planOccurrences, type MissedCode } from './occurrences';
import type { MissedRunPolicy } from '../../../src-shared/settings';

/**
 * The executor's decisions about time, as pure functions of the automations, what the journal holds and
 * the current instant: which occurrences run and which are recorded as not run (and why), which runs a
 * restart picks up again, and when the next pass is due. No clock, no service, no store.
 */

/** Why the occurrences that fell due since the last pass were missed, if they are late. */
export interface MissedContext {
  readonly code: MissedCode;
  readonly because: string;
}

export interface PlanPolicy {
  readonly missedRunPolicy: MissedRunPolicy;
  /** An occurrence at most this old is on time and simply runs. */
  readonly onTimeMs: number;
  /** Under `latest`, the newest missed occurrence still runs when it is at most this old. */
  readonly graceMs: number;
}

/** What the journal remembers of an automation between passes. */
export type SavedAutomation = Pick<JournalAutomation, 'cursor' | 'acked_revision' | 'ack_error'>;

export type AutomationPlan =
  /** The cursor is already at or past now: nothing to decide. */
  | { readonly kind: 'none' }
  /**
   * Record these rows and move the cursor to `cursor`, atomically. `problem` says why no occurrence was
   * considered (an invalid schedule).
   */
  | {
      readonly kind: 'record';
      readonly cursor: string;
      readonly rows: readonly NewRun[];
      readonly problem?: string;
    };

/**
 * A decision for every occurrence of `a` between its cursor and `now`: queued to run, or not run with a
 * reason. `busySince`: the executor has been in a pass since then, so what fell due after it is on time
 * (a slow pass is not an absence).
 */
export function planAutomation(
  a: Automation,
  saved: SavedAutomation | undefined,
  now: Date,
  policy: PlanPolicy,
  missed: MissedContext,
  busySince?: Date,
): AutomationPlan {
  const nowIso = now.toISOString();
  // First sight: occurrences before now were never this executor's to run.
  if (!saved?.cursor) return { kind: 'record', cursor: nowIso, rows: [] };
  const cursor = new Date(saved.cursor);
  if (cursor.getTime() >= now.getTime()) return { kind: 'none' };
  let occurrences: Date[];
  try {
    occurrences = occurrencesBetween(a.schedule, cursor, now, 1000);
  } catch (err) {
    return {
      kind: 'record',
      cursor: nowIso,
      rows: [],
      problem: `automation ${a.name}: invalid schedule ${a.schedule.cron} (${a.schedule.timezone}): ${errorText(err)}`,
    };
  }
  const base = { automationId: a.id, automationName: a.name, queue: 'local' as const, revision: a.revision };
  const notRun = (d: Date, code: ReasonCode, reason: string): NewRun => ({
    ...base,
    scheduledFor: d.toISOString(),
    state: 'not_run',
    reasonCode: code,
    reason,
  });
  const ackedRevision = saved.acked_revision ?? a.acked_revision ?? null;
  let rows: NewRun[];
  if (a.status === 'paused') {
    rows = occurrences.map((d) => notRun(d, 'automation_paused', 'the automation is paused'));
  } else if (a.status === 'removed') {
    // A removed automation has no occurrences any more: nothing to explain, row after row.
    rows = [];
  } else if (a.targets.length === 0) {
    rows = occurrences.map((d) => notRun(d, 'no_targets', 'the automation has no targets'));
  } else if (ackedRevision === null || ackedRevision < a.revision) {
    const why = saved.ack_error ? `: ${saved.ack_error}` : '';
    rows = occurrences.map((d) =>
      notRun(d, 'revision_not_acked', `revision ${a.revision} could not be acknowledged${why}`),
    );
  } else {
    rows = planOccurrences(occurrences, now, {
      policy: policy.missedRunPolicy,
      onTimeMs: policy.onTimeMs,
      graceMs: policy.graceMs,
      missedBecause: missed.because,
      missedCode: missed.code,
      busySince,
    }).map((d) =>
      d.action === 'run'
        ? {
            ...base,
            scheduledFor: d.scheduledFor.toISOString(),
            state: 'queued',
            idempotencyKey: occurrenceKey(a, d.scheduledFor.toISOString()),
          }
        : notRun(d.scheduledFor, d.code, d.reason),
    );
  }
  return { kind: 'record', cursor: nowIso, rows };
}

/** An occurrence outside the schedule, asked for by the user: its key holds the current time. */
export function runNowRow(a: Automation, now: Date): NewRun {
  const at = now.toISOString();
  return {
    automationId: a.id,
    automationName: a.name,
    queue: 'local',
    scheduledFor: at,
    revision: a.revision,
    state: 'queued',
    idempotencyKey: occurrenceKey(a, at),
  };
}

/** The idempotency key of one occurrence of one revision: replaying a start with it starts nothing new. */
export function occurrenceKey(a: Pick<Automation, 'id' | 'revision'>, scheduledFor: string): string {
  return `${a.id}:${a.revision}:${scheduledFor}`;
}

/**
 * Why late occurrences were missed: the reason the executor was given (sleep, pause), else what can be
 * told from the loop having watched the clock or not.
 */
export function missedContext(
  hint: MissedContext | null,
  loop: { readonly running: boolean; readonly passes: number },
): MissedContext {
  if (hint) return hint;
  // Between passes of `--once`, or before the loop's first pass, nothing was watching the clock.
  if (!loop.running || loop.passes <= 1)
    return { code: 'executor_offline', because: 'the executor was not running' };
  return { code: 'executor_offline', because: 'the executor was offline or asleep' };
}

/**
 * When the next pass is due: the sync interval, or sooner for the next occurrence of an active local
 * automation after `plannedUpTo` (the instant the last pass planned up to; default `now`). An occurrence
 * that fell due after that instant, during the pass, makes the answer `now` or earlier: go again at once.
 */
export function nextWake(
  automations: Iterable<Automation>,
  now: Date,
  syncIntervalMs: number,
  plannedUpTo: Date = now,
): number {
  let next = now.getTime() + syncIntervalMs;
  for (const a of automations) {
    if (a.queue !== 'local' || a.status !== 'active') continue;
    try {
      const n = nextOccurrence(a.schedule, plannedUpTo);
      if (n && n.getTime() < next) next = n.getTime();
    } catch {
      // An invalid schedule is reported by the pass that plans it.
    }
  }
  return next;
}

/**
 * What a restart does with a run it finds unfinished in the journal: a queued occurrence runs if the policy
 * still wants it (`all`, or within the grace window) and expires otherwise; a start that got no run id is
 * tried again with its key; anything further along is resumed where it stopped.
 */
export function afterRestart(
  row: Pick<JournalRun, 'state' | 'run_id' | 'scheduled_for'>,
  now: Date,
  policy: Pick<PlanPolicy, 'missedRunPolicy' | 'graceMs'>,
): 'requeue' | 'expire' | 'resume' {
  if (row.state === 'queued') {
    const late = row.scheduled_for ? now.getTime() - Date.parse(row.scheduled_for) : 0;
    return policy.missedRunPolicy === 'all' || late <= policy.graceMs ? 'requeue' : 'expire';
  }
  if (row.state === 'starting' && !row.run_id) return 'requeue';
  return 'resume';
}
