import { z } from 'zod';
import { Caption, DateTime, Platform, Target } from '../api/common';
import { MediaRef } from '../api/posts';
import { LIMITS } from '../api/limits';
import { AccountQueue, QueueSchedule, QueueSlot } from '../queue';
import { NoInput } from './common';
import { invoke } from './define';

const AccountId = z.string().min(1).max(200);

/** A post already on a slot, as the Queue screen lists it. */
export const SlotPost = z.object({
  post_id: z.string(),
  delivery_id: z.string(),
  caption: z.string(),
  platform: Platform,
});
export type SlotPost = z.infer<typeof SlotPost>;

/** One upcoming slot of an account: empty (`posts` is empty) or filled by the posts scheduled at that instant. */
export const UpcomingSlot = QueueSlot.extend({
  at: DateTime,
  /** The calendar date in the account's zone, `YYYY-MM-DD`. */
  date: z.string(),
  posts: z.array(SlotPost),
});
export type UpcomingSlot = z.infer<typeof UpcomingSlot>;

export const AccountUpcoming = z.object({
  account_id: z.string(),
  timezone: z.string(),
  slots: z.array(UpcomingSlot),
});
export type AccountUpcoming = z.infer<typeof AccountUpcoming>;

export const QueueUpcomingQuery = z.object({
  /** Only these accounts; absent: every account with slots. */
  account_ids: z.array(AccountId).max(100).optional(),
  /** Upcoming slots per account (default 10). */
  count: z.number().int().min(1).max(200).optional(),
});

/** What "Add to queue" sends: a post without a time; each target goes to its own account's next free slot. */
export const QueueAddRequest = z.object({
  caption: Caption,
  title: z.string().max(LIMITS.postTitle).optional(),
  media: z.array(MediaRef).max(LIMITS.mediaPerPost).optional(),
  targets: z.array(Target).min(1).max(LIMITS.addTargetsPerUpdate),
});
export type QueueAddRequest = z.infer<typeof QueueAddRequest>;

/**
 * One post per distinct time: the service's create takes one `scheduled_at` for all its targets, so targets whose
 * next free slots differ become separate posts. `post_id` is null while the outbox holds a post the service has
 * not confirmed yet (it is sent on its own).
 */
export const QueuePlaced = z.object({
  at: DateTime,
  targets: z.array(Target),
  post_id: z.string().nullable(),
});
export type QueuePlaced = z.infer<typeof QueuePlaced>;
export const QueueAddResult = z.object({ posts: z.array(QueuePlaced) });

/** Where "Add to queue" would put a post now, without creating it: the page says so before a post is split. */
export const QueuePlanRequest = z.object({ targets: z.array(Target).min(1).max(LIMITS.addTargetsPerUpdate) });
export const QueuePlan = z.object({
  /** One entry when the post stays one post; one per instant when its accounts share no free slot. */
  posts: z.array(z.object({ at: DateTime, targets: z.array(Target) })),
});
export type QueuePlan = z.infer<typeof QueuePlan>;
export type QueueAddResult = z.infer<typeof QueueAddResult>;

/** A post moved: to the instant of another slot, or to the top of one account's queue (others shift down). */
export const QueueMoveRequest = z.union([
  z.object({ post_id: z.string().min(1).max(200), to: DateTime }),
  z.object({ post_id: z.string().min(1).max(200), account_id: AccountId, top: z.literal(true) }),
]);
export type QueueMoveRequest = z.infer<typeof QueueMoveRequest>;
export const QueueMoved = z.object({
  moved: z.array(z.object({ post_id: z.string(), from: DateTime.nullable(), to: DateTime })),
});
export type QueueMoved = z.infer<typeof QueueMoved>;

export const queue = {
  /** Every account's weekly slots for the current service. */
  schedules: invoke(NoInput, z.object({ queues: z.array(AccountQueue) })),
  /** Replaces one account's slots and zone; no slots removes its queue. */
  set: invoke(
    z.object({ account_id: AccountId, schedule: QueueSchedule }),
    z.object({ queue: AccountQueue.nullable() }),
  ),
  upcoming: invoke(QueueUpcomingQuery, z.object({ accounts: z.array(AccountUpcoming) })),
  plan: invoke(QueuePlanRequest, QueuePlan),
  add: invoke(QueueAddRequest, QueueAddResult),
  move: invoke(QueueMoveRequest, QueueMoved),
} as const;
