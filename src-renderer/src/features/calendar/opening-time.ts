import { toLocalInput } from '../../app/format';

/** The hour of an instant in the shown zone (`toLocalInput`), as `HH`. */
const hourOf = (iso: string): string => toLocalInput(iso).slice(11, 13);

/**
 * Where the week view opens: at the earliest hour of day any of the week's posts has (a post early on Friday is
 * not hidden by a later one on Monday), else at the hour now when the week holds it, else at 08:00; hours in
 * the shown zone.
 */
export function openingTime(starts: readonly string[], now: Date, week: { start: Date; end: Date }): string {
  const hours = starts.map(hourOf).sort();
  const hour = hours[0] ?? (now >= week.start && now < week.end ? hourOf(now.toISOString()) : null);
  return `${hour ?? '08'}:00:00`;
}
