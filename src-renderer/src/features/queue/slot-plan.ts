import { TZDate } from '@date-fns/tz';
import {
  MAX_SLOTS_PER_WEEK,
  sortSlots,
  type AccountQueue,
  type QueueSchedule,
  type QueueSlot,
} from '../../../../src-shared/queue';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A weekly time (ISO weekday, `HH:mm`) read in one zone, as the same moment reads in another: taken on its next
 * date from `now`, so it says what the person sees this coming week (a later clock change may shift it by an hour).
 */
export function slotInZone(slot: QueueSlot, from: string, to: string, now: Date): QueueSlot {
  if (from === to) return slot;
  const today = TZDate.tz(from, now.getTime());
  const iso = today.getDay() === 0 ? 7 : today.getDay();
  const ahead = (slot.weekday - iso + 7) % 7;
  const [h, m] = slot.time.split(':').map(Number) as [number, number];
  const at = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() + ahead, h, m, 0, from);
  const there = TZDate.tz(to, at.getTime());
  return {
    weekday: there.getDay() === 0 ? 7 : there.getDay(),
    time: `${pad(there.getHours())}:${pad(there.getMinutes())}`,
  };
}

/** What "+ Add posting time" asks: days (ISO weekdays) at one time, read in a zone, for some accounts. */
export interface AddTimeRequest {
  readonly days: readonly number[];
  readonly time: string;
  readonly zone: string;
  readonly accountIds: readonly string[];
}

export interface AccountAdd {
  readonly account_id: string;
  /** The account's whole new schedule, as `queue:set` takes it. */
  readonly schedule: QueueSchedule;
  /** The slots added, in the account's zone (which may differ from the one asked in). */
  readonly added: readonly QueueSlot[];
  /** The account keeps its times in another zone: the time is saved there. */
  readonly keptZone: string | null;
  /** The account would pass the weekly limit. */
  readonly tooMany: boolean;
}

/**
 * Each account's schedule with the new times: an account with times already keeps its zone (its other times must
 * not move), and the new ones are saved in it as the same moments; one without takes the zone asked in.
 */
export function planAdd(queues: readonly AccountQueue[], req: AddTimeRequest, now: Date): AccountAdd[] {
  return req.accountIds.map((account_id) => {
    const had = queues.find((q) => q.account_id === account_id && q.slots.length > 0) ?? null;
    const zone = had ? had.timezone : req.zone;
    const key = (s: QueueSlot) => `${s.weekday} ${s.time}`;
    const have = new Set((had?.slots ?? []).map(key));
    const added = req.days
      .map((weekday) => slotInZone({ weekday, time: req.time }, req.zone, zone, now))
      .filter((s, i, all) => !have.has(key(s)) && all.findIndex((o) => key(o) === key(s)) === i);
    const slots = sortSlots([...(had?.slots ?? []), ...added]);
    return {
      account_id,
      schedule: { timezone: zone, slots },
      added,
      keptZone: zone !== req.zone ? zone : null,
      tooMany: slots.length > MAX_SLOTS_PER_WEEK,
    };
  });
}

/** The account's schedule without one weekly slot. */
export function withoutSlot(queue: Readonly<AccountQueue>, slot: QueueSlot): QueueSchedule {
  return {
    timezone: queue.timezone,
    slots: queue.slots.filter((s) => s.weekday !== slot.weekday || s.time !== slot.time),
  };
}
