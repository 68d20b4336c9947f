import { TZDate, tzOffset } from '@date-fns/tz';
import type { QueueSchedule, QueueSlot } from '../../../src-shared/queue';
import { sortSlots } from '../../../src-shared/queue';

/** One upcoming slot: the instant it falls on, and the weekly slot it comes from. */
export interface SlotInstant {
  readonly at: Date;
  readonly slot: QueueSlot;
  /** The calendar date in the schedule's zone, `YYYY-MM-DD`. */
  readonly date: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The instant a wall-clock time of a date has in `zone`, with the executor's rule for clock changes (croner, which
 * the automations' schedules use, so a queue slot and an automation at the same wall time fall together):
 * - a time the zone skips (spring gap, 02:30 in Berlin on the last Sunday of March) is read with the offset in force
 *   before the change, so it moves forward by the gap: 02:30 becomes 03:30 summer time, once;
 * - a time the zone shows twice (autumn overlap) is the first of the two, in summer time, once.
 * TZDate alone is not enough: in an overlap it picks the second instant in some zones and the first in others.
 */
export function wallTimeToInstant(
  zone: string,
  y: number,
  month: number,
  d: number,
  h: number,
  mi: number,
): Date {
  const asUtc = Date.UTC(y, month - 1, d, h, mi);
  // The offsets in force a day either side of the date: every real clock change lies between them.
  const before = tzOffset(zone, new Date(asUtc - DAY_MS));
  const after = tzOffset(zone, new Date(asUtc + DAY_MS));
  const shows = (t: number): boolean => {
    const w = TZDate.tz(zone, t);
    return (
      w.getFullYear() === y &&
      w.getMonth() === month - 1 &&
      w.getDate() === d &&
      w.getHours() === h &&
      w.getMinutes() === mi
    );
  };
  const candidates = [...new Set([asUtc - before * 60_000, asUtc - after * 60_000])]
    .filter(shows)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? asUtc - before * 60_000);
}

/**
 * The next `count` slot instants strictly after `after`, earliest first. Two weekly slots that land on one
 * instant (a gap time and the hour after it) count once. An empty schedule has none.
 */
export function upcomingSlots(
  schedule: Readonly<QueueSchedule>,
  after: Date,
  count: number,
  opts: { readonly maxDays?: number } = {},
): SlotInstant[] {
  const slots = sortSlots(schedule.slots);
  if (slots.length === 0 || count <= 0) return [];
  const out: SlotInstant[] = [];
  const seen = new Set<number>();
  const start = TZDate.tz(schedule.timezone, after.getTime());
  const maxDays = opts.maxDays ?? Math.max(14, Math.ceil(count / slots.length) * 7 + 14);
  for (let i = 0; i <= maxDays && out.length < count; i += 1) {
    // Calendar days in the zone: a local date plus i days, whatever its length in hours.
    const day = new TZDate(
      start.getFullYear(),
      start.getMonth(),
      start.getDate() + i,
      12,
      0,
      0,
      schedule.timezone,
    );
    const weekday = day.getDay() === 0 ? 7 : day.getDay();
    for (const slot of slots) {
      if (slot.weekday !== weekday) continue;
      const [h, mi] = slot.time.split(':').map(Number) as [number, number];
      const at = wallTimeToInstant(
        schedule.timezone,
        day.getFullYear(),
        day.getMonth() + 1,
        day.getDate(),
        h,
        mi,
      );
      if (at.getTime() <= after.getTime() || seen.has(at.getTime())) continue;
      seen.add(at.getTime());
      out.push({
        at,
        slot,
        date: `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`,
      });
    }
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime()).slice(0, count);
}
