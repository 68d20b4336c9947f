import { Cron } from 'croner';

/** Catch-up bound: a clock jump of a year over a per-minute cron must not create half a million runs. */
export const MAX_OCCURRENCES_PER_TICK = 100;

/** Why a cron or time zone is unusable, or null when it is fine. Only 5-field crons are accepted. */
export function scheduleProblem(cron: string, timezone: string): string | null {
  if (cron.trim().split(/\s+/).length !== 5) return `schedule.cron "${cron}" must have 5 fields`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    return `schedule.timezone "${timezone}" is not an IANA time zone`;
  }
  try {
    new Cron(cron, { timezone, paused: true });
  } catch (err) {
    return `schedule.cron "${cron}" is invalid: ${(err as Error).message}`;
  }
  return null;
}

/**
 * Occurrences in (after, until], oldest first, computed in the automation's time zone. When there are
 * more than `max`, only the latest `max` are returned. Walks forward (cheap for the usual short
 * window); a long clock jump instead walks back from `until`, so it costs `max` steps, not one per
 * occurrence.
 */
export function occurrencesBetween(
  cron: string,
  timezone: string,
  after: Date,
  until: Date,
  max = MAX_OCCURRENCES_PER_TICK,
): Date[] {
  const job = new Cron(cron, { timezone, paused: true });
  const found: Date[] = [];
  let cursor = job.nextRun(after);
  while (cursor !== null && cursor.getTime() <= until.getTime()) {
    if (found.length === max) {
      // previousRuns is strictly before its reference at whole-second resolution; step past `until`.
      return job
        .previousRuns(max, new Date(until.getTime() + 1000))
        .filter((d) => d.getTime() <= until.getTime())
        .reverse();
    }
    found.push(cursor);
    cursor = job.nextRun(cursor);
  }
  return found;
}
