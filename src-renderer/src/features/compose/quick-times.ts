import { hour12, toLocalInput } from '../../app/format';

const pad = (n: number) => String(n).padStart(2, '0');

/** The hour "Tomorrow" picks, in the person's zone. */
export const TOMORROW_HOUR = 9;

/**
 * "Tomorrow 9:00" as a `datetime-local` value in the person's zone: the calendar day after `nowMs`'s day there
 * (a day added to the date, not 24 hours to the instant, so a day of 23 or 25 hours still lands on tomorrow).
 */
export function tomorrowAt(nowMs: number, hour = TOMORROW_HOUR): string {
  const [y, m, d] = toLocalInput(new Date(nowMs)).slice(0, 10).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}T${pad(hour)}:00`;
}

/** "Tomorrow 9:00 AM" or "Tomorrow 09:00", as the person's 12/24-hour choice shows the hour. */
export function tomorrowLabel(hour = TOMORROW_HOUR): string {
  const time = new Intl.DateTimeFormat(undefined, {
    hour: 'numeric',
    minute: '2-digit',
    hour12: hour12(),
    timeZone: 'UTC',
  }).format(Date.UTC(2000, 0, 1, hour));
  return `Tomorrow ${time}`;
}
