import { Cron } from 'croner';
import type { MissedRunPolicy } from '../../../src-shared/settings';

export interface Schedule {
  readonly cron: string;
  readonly timezone: string;
}

const cache = new Map<string, Cron>();

/** The same library and options as the sandbox, so both agree on every occurrence. */
function cronFor(schedule: Schedule): Cron {
  const key = `${schedule.timezone}\u0000${schedule.cron}`;
  let cron = cache.get(key);
  if (!cron) {
    cron = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
    if (cache.size > 500) cache.clear();
    cache.set(key, cron);
  }
  return cron;
}

/**
 * croner builds a new `Intl.DateTimeFormat` for every conversion into a time zone, several per `nextRun`. Asked
 * once per automation, several times a pass, that was most of a fleet executor's CPU at 500 automations, and
 * the formatters' ICU memory, outside the V8 heap that decides when to collect, grew its RSS by hundreds of
 * MiB (docs/executor.md, "Running a fleet"). Automations share few schedules, and a pass asks them all about
 * the same instants, so each answer is kept per schedule and instant: the cost follows the schedules.
 */
const answers = new Map<string, number | null>();
const ANSWERS_MAX = 20_000;

/** croner's next occurrence after `after`. It depends on `after`'s whole second only (croner steps from it). */
function nextRunOf(schedule: Schedule, after: Date): Date | null {
  const key = `${schedule.timezone}\u0000${schedule.cron}\u0000${Math.floor(after.getTime() / 1000)}`;
  let at = answers.get(key);
  if (at === undefined) {
    at = cronFor(schedule).nextRun(after)?.getTime() ?? null;
    if (answers.size >= ANSWERS_MAX) answers.clear();
    answers.set(key, at);
  }
  return at === null ? null : new Date(at);
}

/** Occurrences in (after, upTo], oldest first, at most `max` of them (the newest are kept). */
export function occurrencesBetween(schedule: Schedule, after: Date, upTo: Date, max = 10_000): Date[] {
  const out: Date[] = [];
  let cursor: Date | null = after;
  for (;;) {
    cursor = nextRunOf(schedule, cursor);
    if (!cursor || cursor.getTime() > upTo.getTime()) break;
    out.push(cursor);
    if (out.length > max) out.shift();
  }
  return out;
}

export function nextOccurrence(schedule: Schedule, after: Date): Date | null {
  return nextRunOf(schedule, after);
}

export interface PlanOptions {
  readonly policy: MissedRunPolicy;
  /** An occurrence at most this old is on time and simply runs. */
  readonly onTimeMs: number;
  /** Under `latest`, the newest missed occurrence still runs when it is at most this old. */
  readonly graceMs: number;
  /** Why the late ones were missed, e.g. "executor offline" or "executor paused". */
  readonly missedBecause: string;
  readonly missedCode: MissedCode;
  /**
   * The executor has been at work (in a pass) since this instant: an occurrence after it fell due while
   * the executor was awake and busy, not while it was away, so it is on time however long the pass took.
   */
  readonly busySince?: Date;
}

export type MissedCode = 'executor_offline' | 'executor_paused';

export type Decision =
  | { readonly scheduledFor: Date; readonly action: 'run'; readonly late: boolean }
  | {
      readonly scheduledFor: Date;
      readonly action: 'skip';
      readonly code: MissedCode;
      readonly reason: string;
    };

const ago = (ms: number): string => {
  const min = Math.round(ms / 60_000);
  return min < 120 ? `${min} min` : `${Math.round(min / 60)} h`;
};

/** Applies the missed-run policy to the occurrences that fell due since the last pass. */
export function planOccurrences(occurrences: readonly Date[], now: Date, o: PlanOptions): Decision[] {
  const isOnTime = (d: Date): boolean =>
    now.getTime() - d.getTime() <= o.onTimeMs ||
    (o.busySince !== undefined && d.getTime() > o.busySince.getTime());
  const late = occurrences.filter((d) => !isOnTime(d));
  const onTime = occurrences.filter(isOnTime);
  const decisions: Decision[] = [];
  const skip = (d: Date, why: string) =>
    decisions.push({
      scheduledFor: d,
      action: 'skip',
      code: o.missedCode,
      reason: `missed: ${o.missedBecause} at ${d.toISOString()} (${ago(now.getTime() - d.getTime())} ago); ${why}`,
    });
  if (o.policy === 'all') {
    for (const d of late) decisions.push({ scheduledFor: d, action: 'run', late: true });
  } else if (o.policy === 'skip') {
    for (const d of late) skip(d, 'policy "skip" runs no missed occurrence');
  } else {
    const newest = late.at(-1);
    for (const d of late) {
      if (d !== newest) skip(d, 'policy "latest" runs only the newest missed occurrence');
      else if (onTime.length > 0) skip(d, 'policy "latest": a newer occurrence is on time');
      else if (now.getTime() - d.getTime() > o.graceMs)
        skip(d, `policy "latest": older than the ${ago(o.graceMs)} grace window`);
      else decisions.push({ scheduledFor: d, action: 'run', late: true });
    }
  }
  for (const d of onTime) decisions.push({ scheduledFor: d, action: 'run', late: false });
  return decisions;
}
