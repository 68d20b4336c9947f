import { TZDate } from '@date-fns/tz';
import type { Clock } from '../../../src-shared/settings';

/**
 * How dates are shown: the Preferences' zone (null: the computer's) and clock. Dates are stored and sent in
 * UTC; every formatter below reads these, set by `setDatePreferences` when the settings load or change.
 */
export interface DatePreferences {
  readonly timeZone: string | null;
  readonly clock: Clock;
}

const hour12Of = (clock: Clock): boolean | undefined => (clock === 'auto' ? undefined : clock === '12h');

function formattersFor(p: DatePreferences) {
  const zone = { timeZone: p.timeZone ?? undefined };
  const hours = { hour12: hour12Of(p.clock) };
  return {
    dateTime: new Intl.DateTimeFormat(undefined, {
      ...zone,
      ...hours,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }),
    dateOnly: new Intl.DateTimeFormat(undefined, {
      ...zone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }),
    timeOnly: new Intl.DateTimeFormat(undefined, {
      ...zone,
      ...hours,
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
    }),
    // A calendar day has no zone: shown as the day it names.
    day: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' }),
  };
}

let prefs: DatePreferences = { timeZone: null, clock: 'auto' };
let f = formattersFor(prefs);

export function setDatePreferences(p: DatePreferences): void {
  if (p.timeZone === prefs.timeZone && p.clock === prefs.clock) return;
  prefs = { timeZone: p.timeZone, clock: p.clock };
  f = formattersFor(prefs);
}
/** For FullCalendar and other formatters of their own: 12-hour (true), 24-hour (false), or the language's. */
export const hour12 = (): boolean | undefined => hour12Of(prefs.clock);

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export const formatDateTime = (iso: string | null | undefined): string =>
  iso ? f.dateTime.format(new Date(iso)) : '—';
export const formatDate = (iso: string | null | undefined): string =>
  iso ? f.dateOnly.format(new Date(iso)) : '—';
export const formatTime = (iso: string | null | undefined): string =>
  iso ? f.timeOnly.format(new Date(iso)) : '—';
/** A calendar day (`YYYY-MM-DD`, no time): shown as that day, whatever the zone. */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? f.day.format(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : formatDate(day);
}
export const formatCompact = (n: number): string => compact.format(n);

export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  if (abs < 60_000) return relative.format(Math.round(diff / 1000), 'second');
  if (abs < 3_600_000) return relative.format(Math.round(diff / 60_000), 'minute');
  if (abs < 86_400_000) return relative.format(Math.round(diff / 3_600_000), 'hour');
  return relative.format(Math.round(diff / 86_400_000), 'day');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date whose fields (`getHours`…) read in the chosen zone. */
const inZone = (d: Date): Date => (prefs.timeZone ? new TZDate(d.getTime(), prefs.timeZone) : d);

/** The value of an `<input type="datetime-local">` for this instant, in the chosen zone. */
export function toLocalInput(iso: string | Date): string {
  const d = inZone(typeof iso === 'string' ? new Date(iso) : iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value in the chosen zone as the UTC instant the service expects, or null when empty/invalid. */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = prefs.timeZone
    ? new TZDate(y, mo - 1, d, h, mi, s, prefs.timeZone)
    : new Date(y, mo - 1, d, h, mi, s);
  return Number.isNaN(at.getTime()) ? null : new Date(at.getTime()).toISOString();
}

/** The zone dates are shown in, for labels ("shown in Europe/Paris time"): the chosen one, or the computer's. */
export const localZone = (): string => prefs.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
