import { z } from 'zod';
import { BulkUpdate } from '../api/bulk';
import { DateTime, Platform, Target } from '../api/common';
import { LIMITS } from '../api/limits';
import { Delivery, DeliveryStatus } from '../api/posts';
import { invoke } from './define';
import { ListFreshness } from './posts';

/** Posts, not deliveries, read from the local index; `offset` and `limit` count posts. */
export const PostGroupsQuery = z.object({
  status: DeliveryStatus.optional(),
  platform: Platform.optional(),
  /** Only posts never scheduled (drafts without a time): the calendar's side list. */
  unscheduled: z.boolean().optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  /** Ask the service now rather than within the index's refresh interval. */
  refresh: z.boolean().optional(),
});
export type PostGroupsQuery = z.input<typeof PostGroupsQuery>;

export const PostGroup = z.object({
  post_id: z.string(),
  /** Every delivery of the post the index holds, by platform then account. */
  deliveries: z.array(Delivery),
});
export type PostGroup = z.infer<typeof PostGroup>;

export const PostGroupsPage = z.object({
  groups: z.array(PostGroup),
  offset: z.number().int().min(0),
  /** How many posts match, whatever the page. */
  total: z.number().int().min(0),
  freshness: ListFreshness.optional(),
});
export type PostGroupsPage = z.infer<typeof PostGroupsPage>;

/** A year either way: a bigger shift is a typo. */
const MAX_SHIFT_MS = 366 * 86_400_000;

/** One change for many posts: applied to each post on its own. */
export const ManyChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shift'), by_ms: z.number().int().min(-MAX_SHIFT_MS).max(MAX_SHIFT_MS) }),
  z
    .object({ kind: z.literal('spread'), from: DateTime, to: DateTime })
    .refine((s) => Date.parse(s.from) <= Date.parse(s.to), {
      message: 'from must not be after to',
      path: ['to'],
    }),
  z.object({
    kind: z.literal('addTargets'),
    targets: z.array(Target).min(1).max(LIMITS.addTargetsPerUpdate),
  }),
  /** Into the posting queue's next free slots, in the posts' current order (each post on its first account's slots). */
  z.object({ kind: z.literal('queue') }),
  z.object({ kind: z.literal('cancel') }),
  z.object({ kind: z.literal('delete') }),
]);
export type ManyChange = z.infer<typeof ManyChange>;

/** What the page may change at once: a selection of at most the screen's 10,000. */
export const ChangeManyInput = z.object({
  post_ids: z.array(z.string().min(1).max(200)).min(1).max(10_000),
  change: ManyChange,
});
export type ChangeManyInput = z.input<typeof ChangeManyInput>;

/** One post's result. `update`: the exact entry sent (absolute times), what "Retry failed" sends again. */
export const ChangeOutcome = z.object({
  post_id: z.string(),
  ok: z.boolean(),
  /** Why it was not changed, in words for a person; null when it was. */
  error: z.string().nullable(),
  /** The service never answered for it: it may have been applied (not a refusal). */
  unknown: z.boolean().optional(),
  update: BulkUpdate.optional(),
});
export type ChangeOutcome = z.infer<typeof ChangeOutcome>;

export const ChangeManyResult = z.object({
  outcomes: z.array(ChangeOutcome),
  /** How many `PATCH /api/cli/posts/bulk` requests were sent (each up to 100 posts); one by one changes send none. */
  requests: z.number().int().min(0),
});
export type ChangeManyResult = z.infer<typeof ChangeManyResult>;

/** Sends these entries again, exactly as they were sent the first time (so a retried shift never moves twice). */
export const RetryUpdatesInput = z.object({ updates: z.array(BulkUpdate).min(1).max(10_000) });
export type RetryUpdatesInput = z.input<typeof RetryUpdatesInput>;

export const OnePostInput = z.object({ post_id: z.string().min(1).max(200) });

/** When a failed delivery goes out again: now, at a chosen time, or at its account's next free queue slot. */
export const RetryWhen = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('now') }),
  z.object({ kind: z.literal('at'), at: DateTime }),
  z.object({ kind: z.literal('queue') }),
]);
export type RetryWhen = z.infer<typeof RetryWhen>;

/** The failed deliveries of one post to make again: these (one, from its row), or every failed one. */
export const RetryDeliveriesInput = z.object({
  post_id: z.string().min(1).max(200),
  /** Absent: every failed delivery of the post ("Retry all failed"). */
  delivery_ids: z.array(z.string().min(1).max(200)).min(1).max(50).optional(),
  when: RetryWhen,
});
export type RetryDeliveriesInput = z.input<typeof RetryDeliveriesInput>;

export const RetryOutcome = z.object({
  delivery_id: z.string(),
  /** `sent`: made again and the failed one removed; `queued`: saved, sent as soon as the service answers. */
  state: z.enum(['sent', 'queued', 'needs_decision', 'failed']),
  post_id: z.string().nullable(),
  /** Why it was not retried, in words for a person; null when it was. */
  error: z.string().nullable(),
});
export type RetryOutcome = z.infer<typeof RetryOutcome>;

/** What a delivery made by a retry carries in its history: the failed one it replaced, and why that one failed. */
export const RetriedAfter = z.object({ reason: z.string().nullable(), failed_at: z.string() });
export type RetriedAfter = z.infer<typeof RetriedAfter>;

/** The post's first media item as a picture the page may show (`data:`), or null; `video` when it is a video. */
export const Thumbnail = z.object({
  data_url: z.string().nullable(),
  kind: z.enum(['image', 'video', 'none']),
  count: z.number().int().min(0),
});
export type Thumbnail = z.infer<typeof Thumbnail>;

export const postGroups = {
  /** A page of posts, each with all its deliveries, after a best-effort refresh (like `posts:list`). */
  list: invoke(PostGroupsQuery, PostGroupsPage),
  /** Shift, spread and add targets go through the bulk update, 100 a request; cancel and delete one by one. */
  changeMany: invoke(ChangeManyInput, ChangeManyResult),
  retry: invoke(RetryUpdatesInput, ChangeManyResult),
  /** The post's first media item as a thumbnail, fetched by main (the page may not load remote images). */
  thumbnail: invoke(OnePostInput, Thumbnail),
  /** A new draft with the post's caption, media and targets. */
  duplicate: invoke(OnePostInput, z.object({ post_id: z.string() })),
  /**
   * Publishes the post now: created again without a time (the contract's only way to publish at once, through the
   * outbox's exactly-once rules), and only once that is confirmed its draft or scheduled deliveries are deleted.
   */
  /** Makes failed deliveries again for their accounts, each exactly once, then removes the failed ones. */
  retryDeliveries: invoke(RetryDeliveriesInput, z.object({ results: z.array(RetryOutcome) })),
  publishNow: invoke(
    OnePostInput,
    z.object({ post_id: z.string(), removed: z.number().int(), not_removed: z.array(z.string()) }),
  ),
} as const;
