import { z } from 'zod';

/** ISO weekdays: 1 is Monday, 7 is Sunday (what `postdesk queue set --slot` and the Queue screen say). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const Weekday = z.number().int().min(1).max(7);
export type Weekday = z.infer<typeof Weekday>;

/** A wall-clock time of day, `HH:mm`, 24-hour. */
export const SlotTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:mm, e.g. 09:00');

/** One weekly posting slot: a weekday and a wall-clock time in the schedule's zone. */
export const QueueSlot = z.object({ weekday: Weekday, time: SlotTime });
export type QueueSlot = z.infer<typeof QueueSlot>;

/** At most this many slots a week per account (ten a day). */
export const MAX_SLOTS_PER_WEEK = 70;

const isZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** An IANA time zone name (`Europe/Berlin`); offsets and abbreviations are refused, they do not follow DST. */
export const TimeZoneName = z
  .string()
  .min(1)
  .max(64)
  .refine((z) => z.includes('/') || z === 'UTC', 'an IANA time zone such as Europe/Berlin')
  .refine(isZone, 'an IANA time zone such as Europe/Berlin');

const slotKey = (s: QueueSlot): string => `${s.weekday} ${s.time}`;

/** One account's weekly slots and the zone they are read in; kept on this computer per service. */
export const QueueSchedule = z.object({
  timezone: TimeZoneName,
  slots: z
    .array(QueueSlot)
    .max(MAX_SLOTS_PER_WEEK)
    .refine((list) => new Set(list.map(slotKey)).size === list.length, 'a slot is listed twice'),
});
export type QueueSchedule = z.infer<typeof QueueSchedule>;

export const AccountQueue = QueueSchedule.extend({
  account_id: z.string().min(1).max(200),
  updated_at: z.string(),
});
export type AccountQueue = z.infer<typeof AccountQueue>;

/** `09:00` of weekday 1 → `Mon 09:00`. */
export const slotLabel = (s: Readonly<QueueSlot>): string => {
  const name = WEEKDAY_NAMES[s.weekday - 1] ?? '?';
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${s.time}`;
};

/** Slots in week order: Monday first, then by time. */
export const sortSlots = (slots: readonly QueueSlot[]): QueueSlot[] =>
  [...slots].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));
