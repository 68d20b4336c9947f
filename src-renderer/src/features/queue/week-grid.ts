import { TZDate } from '@date-fns/tz';
import type { Platform } from '../../../../src-shared/api/common';
import type { AccountUpcoming } from '../../../../src-shared/ipc/queue';
import type { QueueSlot } from '../../../../src-shared/queue';

/** One account posting at a cell's instant, with the weekly slot (in its own zone) that puts it there. */
export interface CellAccount {
  readonly account_id: string;
  readonly slot: QueueSlot;
}

/** A queued post in a cell: one card, whatever the number of its accounts posting then. */
export interface CellPost {
  readonly post_id: string;
  readonly caption: string;
  readonly at: string;
  readonly account_ids: readonly string[];
  readonly platforms: readonly Platform[];
}

export interface GridCell {
  /** The instant of the slot (ISO), or null when no account posts at this day and time. */
  readonly at: string | null;
  readonly accounts: readonly CellAccount[];
  readonly posts: readonly CellPost[];
}

export interface WeekGrid {
  /** The 7 calendar days (`YYYY-MM-DD`, in the person's zone), in the order of their week. */
  readonly days: readonly string[];
  /** Each posting time of the week (`HH:mm` in the person's zone) and its 7 cells. */
  readonly rows: readonly { readonly time: string; readonly cells: readonly GridCell[] }[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (y: number, m0: number, d: number): string => {
  const u = new Date(Date.UTC(y, m0, d));
  return `${u.getUTCFullYear()}-${pad(u.getUTCMonth() + 1)}-${pad(u.getUTCDate())}`;
};

/** Where an instant falls in a zone: its calendar day and wall time. */
export function wallOf(at: string | Date, zone: string): { day: string; time: string } {
  const t = TZDate.tz(zone, new Date(at).getTime());
  return {
    day: dayKey(t.getFullYear(), t.getMonth(), t.getDate()),
    time: `${pad(t.getHours())}:${pad(t.getMinutes())}`,
  };
}

/** The 7 days of the week `offset` weeks from the one holding `now`, starting on the person's first day. */
export function weekDays(now: Date, zone: string, weekStart: 'monday' | 'sunday', offset: number): string[] {
  const t = TZDate.tz(zone, now.getTime());
  const back = weekStart === 'monday' ? (t.getDay() + 6) % 7 : t.getDay();
  return Array.from({ length: 7 }, (_, i) =>
    dayKey(t.getFullYear(), t.getMonth(), t.getDate() - back + offset * 7 + i),
  );
}

/**
 * The week as a grid shared across accounts: a row per distinct posting time of that week in the person's zone,
 * a column per day; each cell says which accounts post then and which queued posts fill it.
 */
export function buildWeekGrid(
  upcoming: readonly AccountUpcoming[],
  days: readonly string[],
  zone: string,
): WeekGrid {
  const cells = new Map<string, { at: string; accounts: CellAccount[]; posts: Map<string, CellPost> }>();
  for (const account of upcoming) {
    for (const slot of account.slots) {
      const w = wallOf(slot.at, zone);
      if (!days.includes(w.day)) continue;
      const key = `${w.day} ${w.time}`;
      const cell = cells.get(key) ?? { at: slot.at, accounts: [], posts: new Map<string, CellPost>() };
      cell.accounts.push({
        account_id: account.account_id,
        slot: { weekday: slot.weekday, time: slot.time },
      });
      for (const p of slot.posts) {
        const had = cell.posts.get(p.post_id);
        cell.posts.set(p.post_id, {
          post_id: p.post_id,
          caption: p.caption,
          at: slot.at,
          account_ids: [...(had?.account_ids ?? []), account.account_id],
          platforms: [...(had?.platforms ?? []), p.platform],
        });
      }
      cells.set(key, cell);
    }
  }
  const times = [...new Set([...cells.keys()].map((k) => k.slice(11)))].sort();
  return {
    days,
    rows: times.map((time) => ({
      time,
      cells: days.map((day) => {
        const c = cells.get(`${day} ${time}`);
        return c
          ? { at: c.at, accounts: c.accounts, posts: [...c.posts.values()] }
          : { at: null, accounts: [], posts: [] };
      }),
    })),
  };
}

/** The last instant every account's upcoming list reaches: weeks after it would show slots missing. */
export function horizonOf(upcoming: readonly AccountUpcoming[], count: number): number {
  const ends = upcoming
    .filter((a) => a.slots.length >= count)
    .map((a) => Date.parse(a.slots[a.slots.length - 1]?.at ?? ''));
  return ends.length ? Math.min(...ends) : Number.POSITIVE_INFINITY;
}

/**
 * Whether a post may be dropped on a cell: a slot of one of its accounts, not its own, and not held by another
 * post of those accounts (a slot holds one post per account).
 */
export function canDrop(post: Pick<CellPost, 'post_id' | 'account_ids' | 'at'>, cell: GridCell): boolean {
  if (!cell.at || cell.at === post.at) return false;
  if (!cell.accounts.some((a) => post.account_ids.includes(a.account_id))) return false;
  return !cell.posts.some(
    (p) => p.post_id !== post.post_id && p.account_ids.some((id) => post.account_ids.includes(id)),
  );
}
