import { z } from 'zod';
import {
  CreatePostRequest,
  CreatePostResponse,
  DeletePostRequest,
  Delivery,
  ListPostsQuery,
  ListPostsResponse,
  SuccessResponse,
  UpdatePostRequest,
  UpdatePostResponse,
} from '../api/posts';
import { DateTime, Platform } from '../api/common';
import { BridgeError } from './bridge-error';
import { event, invoke } from './define';
import { NoInput } from './common';

/**
 * One precise change to the posts, as the local index took it: the new record of each delivery that changed and
 * the deliveries that are gone. A screen applies it to the rows it holds, one by one, without reading its list
 * again. Sent only by the host's post-state model (src-main/core/post-state), never by a handler.
 */
export const PostsChanged = z.object({
  /** What taught it: an answer to a change, a bulk batch, a delete, or a refresh from the service. */
  reason: z.enum(['created', 'updated', 'deleted', 'bulk', 'run', 'refresh']),
  /** Every post touched, changed or removed. */
  post_ids: z.array(z.string()).optional(),
  /** The deliveries that changed, each as it now is. */
  deliveries: z.array(Delivery).optional(),
  /** Deliveries removed, with the post each belonged to. */
  removed: z.array(z.object({ id: z.string(), post_id: z.string() })).optional(),
});
export type PostsChanged = z.infer<typeof PostsChanged>;

/**
 * What `posts:create` answers: the service's answer, plus the local outbox entry the create went
 * through (written to the store before anything was sent).
 */
export const CreatePostResult = CreatePostResponse.extend({ outbox_entry_id: z.string().optional() });
export type CreatePostResult = z.infer<typeof CreatePostResult>;

/** A delivery that ended `failed`, reported once (the watcher remembers what it reported). */
export const DeliveryFailed = z.object({
  id: z.string(),
  post_id: z.string(),
  platform: Platform,
  social_account_id: z.string(),
  /** The service's reason (`last_error`), or null when it gave none. */
  error: z.string().nullable(),
  failed_at: z.string(),
  /** The deep link that opens this delivery: `postdesk://post/<id>`. */
  link: z.string(),
});
export type DeliveryFailed = z.infer<typeof DeliveryFailed>;

/**
 * `posts:list` reads the app's local index of deliveries (the service lists at most 100, with no
 * offset), after a best-effort refresh from the service. Additive to the service's query: `offset`,
 * and a page of up to 1,000.
 */
export const PostsListQuery = ListPostsQuery.extend({
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50).optional(),
  /** Ask the service now rather than within the index's refresh interval (the user opened or refreshed the list). */
  refresh: z.boolean().optional(),
  /** Only the deliveries of this post (the edit dialog lists the accounts it already goes to). */
  post_id: z.string().min(1).max(200).optional(),
});
export type PostsListQuery = z.input<typeof PostsListQuery>;

/**
 * How current a list read from the local index is: when the service last answered a refresh, whether one is
 * still under way (ask again shortly to learn how it ended), and why the last one failed. A screen shows it
 * beside the list, so a service that stopped answering is never hidden behind the rows the index kept.
 */
export const ListFreshness = z.object({
  refreshed_at: DateTime.nullable(),
  refreshing: z.boolean(),
  error: BridgeError.nullable(),
});
export type ListFreshness = z.infer<typeof ListFreshness>;

/** The service's list shape plus paging: `total` deliveries match, `posts` starts at `offset`. */
export const PostsPage = ListPostsResponse.extend({
  offset: z.number().int().min(0),
  total: z.number().int().min(0),
  /** Set when the list came from the local index (absent: straight from the service). */
  freshness: ListFreshness.optional(),
});
export type PostsPage = z.infer<typeof PostsPage>;

/**
 * A post saved on this computer that the service has not confirmed: `waiting` is sent on its own as soon as the
 * service answers; `needs_decision` is a publish whose answer was lost and that the posts list can neither show nor
 * rule out, so it is not sent again until the person decides. Captions only, never the service's error text.
 */
export const QueuedPost = z.object({
  entry_id: z.string(),
  state: z.enum(['waiting', 'needs_decision']),
  caption: z.string(),
  targets: z.array(z.object({ platform: Platform, social_account_id: z.string() })),
  /** Publish now, a schedule (with `scheduled_at`), or a draft. */
  action: z.enum(['publish', 'schedule', 'draft']),
  scheduled_at: z.string().nullable(),
  queued_at: z.string(),
});
export type QueuedPost = z.infer<typeof QueuedPost>;
export const QueuedPosts = z.object({ posts: z.array(QueuedPost) });
export type QueuedPosts = z.infer<typeof QueuedPosts>;

/** The person's answer for a `needs_decision` post: it was not published (send it again), or it was (drop it). */
export const QueuedDecision = z.object({
  entry_id: z.string().min(1).max(100),
  decision: z.enum(['send_again', 'drop']),
});
export type QueuedDecision = z.infer<typeof QueuedDecision>;

export const posts = {
  list: invoke(PostsListQuery, PostsPage),
  /** Publish now (no `action`, no `scheduled_at`), schedule (`scheduled_at` in UTC) or draft. */
  create: invoke(CreatePostRequest, CreatePostResult),
  /** Edit caption, reschedule, cancel to draft (`status: "draft"`), add targets. */
  update: invoke(UpdatePostRequest, UpdatePostResponse),
  /** 409 (`api` error, status 409) when the delivery's status is not deletable. */
  delete: invoke(DeletePostRequest, SuccessResponse),
  didChange: event(PostsChanged),
  /** A delivery failed (found by polling the posts list for status `failed`). */
  didFailDelivery: event(DeliveryFailed),
  /** Checks for failed deliveries now; answers the ones not reported before (also sent as events). */
  checkFailures: invoke(NoInput, z.object({ failed: z.array(DeliveryFailed) })),
  /** Posts saved on this computer and not confirmed yet, oldest first. */
  queued: invoke(NoInput, QueuedPosts),
  /** Answers a `needs_decision` post; `ok: false` when it is not (or no longer) waiting for a decision. */
  decideQueued: invoke(QueuedDecision, z.object({ ok: z.boolean() })),
  /** The queued posts changed (one was saved, sent, refused, decided, or could not be placed). */
  didChangeQueued: event(QueuedPosts),
} as const;
