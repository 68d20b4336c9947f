import type { Target } from '../../../src-shared/api/common';
import type { QueueSchedule } from '../../../src-shared/queue';
import { upcomingSlots } from './slots';

/** Per account, the instants (epoch ms) already taken by a scheduled delivery of that account. */
export type Taken = Map<string, Set<number>>;

/** One post to create: the targets that share one instant (the service's create has one `scheduled_at`). */
export interface Placement {
  readonly at: Date;
  readonly targets: readonly Target[];
}

/** A target's account has no slots: nothing can be placed for it. */
export class NoQueueError extends Error {
  constructor(readonly accountIds: readonly string[]) {
    super(
      `${accountIds.length === 1 ? 'an account has' : `${accountIds.length} accounts have`} no queue slots yet: ${accountIds.join(', ')}`,
    );
    this.name = 'NoQueueError';
  }
}

export interface PlaceOptions {
  /** Each account's weekly slots, by account id. */
  readonly schedules: ReadonlyMap<string, Readonly<QueueSchedule>>;
  /** What is already taken; the placements made here are added to it, so the next call sees them. */
  readonly taken: Taken;
  /** Only slots strictly after this instant. */
  readonly after: Date;
}

/** How far ahead a common slot of several accounts is looked for: a few months of weekly slots. */
const COMMON_HORIZON = 400;

/** The earliest instant every target's account has as a slot and none of them holds yet; null when there is none. */
function commonFreeSlot(targets: readonly Target[], o: PlaceOptions): number | null {
  const accounts = [...new Set(targets.map((t) => t.social_account_id))];
  if (accounts.length < 2) return null;
  const lists = accounts.map((a) => {
    const held = o.taken.get(a) ?? new Set<number>();
    const schedule = o.schedules.get(a) as QueueSchedule;
    return new Set(
      upcomingSlots(schedule, o.after, COMMON_HORIZON + held.size)
        .map((s) => s.at.getTime())
        .filter((ms) => !held.has(ms)),
    );
  });
  const [first, ...rest] = lists;
  for (const ms of [...(first ?? [])].sort((a, b) => a - b)) if (rest.every((l) => l.has(ms))) return ms;
  return null;
}

/**
 * Spreads posts into queue slots, in order. A post keeps all its targets together at the earliest slot that every
 * one of their accounts has and none of them holds yet (including the posts placed before it here), so one post
 * stays one post and moves as one. Only when the accounts share no free slot (their posting times differ) does each
 * target go to its own account's earliest free slot, one post per instant: the callers say so before it is done.
 * Used by "Add to queue", bulk import with the queue, and anything else that fills slots.
 */
export function placeInQueue(
  posts: readonly { readonly targets: readonly Target[] }[],
  o: PlaceOptions,
): Placement[][] {
  const missing = [
    ...new Set(
      posts.flatMap((p) =>
        p.targets
          .filter((t) => !o.schedules.get(t.social_account_id)?.slots.length)
          .map((t) => t.social_account_id),
      ),
    ),
  ];
  if (missing.length) throw new NoQueueError(missing);

  // Per account, enough upcoming slots for every post here even if all already held ones fall among them.
  const need = new Map<string, number>();
  for (const p of posts)
    for (const t of p.targets) need.set(t.social_account_id, (need.get(t.social_account_id) ?? 0) + 1);
  const slotsOf = new Map<string, number[]>();
  for (const [account, n] of need) {
    const schedule = o.schedules.get(account) as QueueSchedule;
    const held = o.taken.get(account)?.size ?? 0;
    slotsOf.set(
      account,
      upcomingSlots(schedule, o.after, n + held + 1).map((s) => s.at.getTime()),
    );
  }

  return posts.map((p) => {
    // One post stays one post: the earliest instant that is a slot of every target and free for each.
    const together = commonFreeSlot(p.targets, o);
    if (together !== null) {
      for (const t of p.targets) {
        const taken = o.taken.get(t.social_account_id) ?? new Set<number>();
        taken.add(together);
        o.taken.set(t.social_account_id, taken);
      }
      return [{ at: new Date(together), targets: [...p.targets] }];
    }
    // The accounts share no free slot (their posting times differ): one post per instant, which the caller says.
    const byInstant = new Map<number, Target[]>();
    for (const t of p.targets) {
      const account = t.social_account_id;
      const taken = o.taken.get(account) ?? new Set<number>();
      o.taken.set(account, taken);
      const at = (slotsOf.get(account) ?? []).find((ms) => !taken.has(ms));
      if (at === undefined) throw new NoQueueError([account]);
      taken.add(at);
      byInstant.set(at, [...(byInstant.get(at) ?? []), t]);
    }
    return [...byInstant].sort(([a], [b]) => a - b).map(([at, targets]) => ({ at: new Date(at), targets }));
  });
}
