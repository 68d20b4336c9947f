import { Cron } from 'croner';
import cronstrue from 'cronstrue';

/**
 * What the schedule picker holds, and the five-part cron each choice is. A cron the picker cannot say (a day of
 * the month, a range of hours) stays `custom` and is edited as text in the Advanced part.
 * Weekdays are cron's: 0 is Sunday … 6 is Saturday.
 */
export type SchedulePick =
  | { readonly kind: 'daily'; readonly time: string }
  | { readonly kind: 'weekdays'; readonly time: string }
  | { readonly kind: 'days'; readonly days: readonly number[]; readonly time: string }
  | { readonly kind: 'hours'; readonly every: number; readonly minute: number }
  | { readonly kind: 'custom'; readonly cron: string };

/** Hours that divide the day: every 5 hours in cron also fires at 20:00 then 00:00, four hours apart. */
export const EVERY_HOURS = [1, 2, 3, 4, 6, 8, 12] as const;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

const hm = (time: string): [number, number] => {
  const m = TIME.exec(time);
  return m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN];
};

/** The cron of a choice (a custom one as typed, spaces tidied). */
export function pickToCron(p: SchedulePick): string {
  if (p.kind === 'custom') return p.cron.trim().replace(/\s+/g, ' ');
  if (p.kind === 'hours') return `${p.minute} ${p.every === 1 ? '*' : `*/${p.every}`} * * *`;
  const [h, m] = hm(p.time);
  const dow =
    p.kind === 'daily' ? '*' : p.kind === 'weekdays' ? '1-5' : [...new Set(p.days)].sort().join(',');
  return `${m} ${h} * * ${dow}`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const num = (s: string, max: number): number | null =>
  /^\d{1,2}$/.test(s) && Number(s) <= max ? Number(s) : null;

/** The choice a cron is, or `custom` when the picker cannot say it. */
export function cronToPick(cron: string): SchedulePick {
  const text = cron.trim().replace(/\s+/g, ' ');
  const parts = text.split(' ');
  const custom = { kind: 'custom', cron: text } as const;
  if (parts.length !== 5) return custom;
  const [mi, h, dom, mon, dow] = parts as [string, string, string, string, string];
  const minute = num(mi, 59);
  if (minute === null || dom !== '*' || mon !== '*') return custom;
  const every = h === '*' ? 1 : /^\*\/\d{1,2}$/.test(h) ? num(h.slice(2), 23) : null;
  if (every !== null && (EVERY_HOURS as readonly number[]).includes(every) && dow === '*')
    return { kind: 'hours', every, minute };
  const hour = num(h, 23);
  if (hour === null) return custom;
  const time = `${pad(hour)}:${pad(minute)}`;
  if (dow === '*') return { kind: 'daily', time };
  if (dow === '1-5') return { kind: 'weekdays', time };
  if (!/^[0-7](,[0-7])*$/.test(dow)) return custom;
  const days = [...new Set(dow.split(',').map((d) => Number(d) % 7))].sort();
  if (days.length === 7) return { kind: 'daily', time };
  return { kind: 'days', days, time };
}

/**
 * Why a choice cannot be sent, naming the field, or null: what the service takes is five parts croner reads.
 * Checked before sending, so the person hears it beside the field rather than from the service.
 */
export function pickProblem(p: SchedulePick): string | null {
  if (p.kind === 'hours') {
    if (!(EVERY_HOURS as readonly number[]).includes(p.every))
      return `Every: pick ${list(EVERY_HOURS.map(String))} hours.`;
    if (!Number.isInteger(p.minute) || p.minute < 0 || p.minute > 59)
      return 'Minute past the hour: pick 0 to 59.';
    return null;
  }
  if (p.kind === 'custom') {
    const cron = pickToCron(p);
    if (cron === '') return 'Schedule (cron): write five parts, for example 0 9 * * 1-5.';
    if (cron.split(' ').length !== 5)
      return `Schedule (cron): a schedule has five parts (minute, hour, day of month, month, weekday); this one has ${cron.split(' ').length}.`;
    try {
      new Cron(cron, { paused: true });
    } catch {
      return 'Schedule (cron): one of its five parts cannot be read. Check each, for example 0 9 * * 1-5.';
    }
    return null;
  }
  if (!TIME.test(p.time)) return 'At: pick a time of day.';
  if (p.kind === 'days' && p.days.length === 0) return 'On: pick at least one day.';
  return null;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const list = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/**
 * A schedule in words: the picker's choices in plain sentences ("Every weekday at 9:00 AM"), any other cron read
 * aloud by cronstrue. `time` formats a wall time (`HH:mm`) as the person reads times.
 */
export function scheduleInWords(
  cron: string,
  o: { readonly use24: boolean; readonly time: (hhmm: string) => string },
): string {
  const p = cronToPick(cron);
  switch (p.kind) {
    case 'daily':
      return `Every day at ${o.time(p.time)}`;
    case 'weekdays':
      return `Every weekday at ${o.time(p.time)}`;
    case 'days':
      return `Every ${list(p.days.map((d) => DAY_NAMES[d] ?? ''))} at ${o.time(p.time)}`;
    case 'hours': {
      const past = p.minute === 0 ? 'on the hour' : `at ${p.minute} past the hour`;
      return p.every === 1 ? `Every hour, ${past}` : `Every ${p.every} hours, ${past}`;
    }
    case 'custom':
      try {
        return cronstrue.toString(p.cron, { use24HourTimeFormat: o.use24, verbose: true });
      } catch {
        return 'A schedule that cannot be read';
      }
  }
}
