import { WEEKDAY_NAMES, type QueueSlot } from '../../../src-shared/queue';
import { sortSlots } from '../../../src-shared/queue';

const NAMED: Readonly<Record<string, readonly number[]>> = {
  daily: [1, 2, 3, 4, 5, 6, 7],
  weekdays: [1, 2, 3, 4, 5],
  weekends: [6, 7],
};

const dayOf = (name: string): number | null => {
  const i = (WEEKDAY_NAMES as readonly string[]).indexOf(name.slice(0, 3));
  return i < 0 ? null : i + 1;
};

/**
 * `mon-fri 09:00,13:00`, `sat 10:30`, `mon,wed,fri 18:00`, `daily 08:00`, `weekdays 12:00`: the weekly slots a
 * command line writes. Answers the slots, or a message naming what is wrong.
 */
export function parseSlotSpec(
  spec: string,
): { ok: true; slots: QueueSlot[] } | { ok: false; message: string } {
  const [daysText = '', timesText = '', ...rest] = spec.trim().toLowerCase().split(/\s+/);
  if (!timesText || rest.length > 0)
    return { ok: false, message: `"${spec}" must be days and times, e.g. "mon-fri 09:00,13:00"` };
  const days = new Set<number>();
  for (const part of daysText.split(',')) {
    const named = NAMED[part];
    if (named) {
      named.forEach((d) => days.add(d));
      continue;
    }
    const [from, to] = part.split('-');
    const a = dayOf(from ?? '');
    const b = to === undefined ? a : dayOf(to);
    if (a === null || b === null)
      return {
        ok: false,
        message: `"${part}" is not a day: write mon…sun, a range (mon-fri), daily, weekdays or weekends`,
      };
    // A range that wraps the week (fri-mon) is read forwards: fri, sat, sun, mon.
    for (let d = a, n = 0; n < 7; d = (d % 7) + 1, n += 1) {
      days.add(d);
      if (d === b) break;
    }
  }
  const times = timesText.split(',').filter(Boolean);
  for (const t of times)
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(t))
      return { ok: false, message: `"${t}" is not a time of day as HH:mm (24-hour), e.g. 09:00` };
  return {
    ok: true,
    slots: sortSlots([...days].flatMap((weekday) => [...new Set(times)].map((time) => ({ weekday, time })))),
  };
}
