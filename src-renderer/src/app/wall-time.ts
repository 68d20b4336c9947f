import { hour12 } from './format';

/** Whether times read on the 12-hour clock: the Preferences' choice, or the language's for `auto`. */
export function clockIs12h(): boolean {
  return (
    hour12() ?? new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hour12 ?? false
  );
}

const WALL = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A wall-clock time (`HH:mm`, no date, no zone) as the person reads times: `9:00 AM` or `09:00`. */
export function formatWallTime(hhmm: string): string {
  const m = WALL.exec(hhmm);
  if (!m) return hhmm;
  return new Intl.DateTimeFormat(undefined, {
    hour: clockIs12h() ? 'numeric' : '2-digit',
    minute: '2-digit',
    hour12: clockIs12h(),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(2000, 0, 1, Number(m[1]), Number(m[2]))));
}
