import type { CreatePostRequest } from '../../../src-shared/api/posts';
import type { Logger } from '../common/logger';

/**
 * `unconfirmed`: a publish whose answer was lost, being looked for in the posts list. `needs_decision`: the list can
 * neither find it nor prove it was never created, so it is not sent again until a person says so (`retry`) or drops
 * it (`discard`).
 */
export const OUTBOX_STATES = [
  'pending',
  'sending',
  'sent',
  'unconfirmed',
  'needs_decision',
  'failed',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
/** Every state but `sent`: the entries `postdesk outbox` and `postdesk status` show. */
export const OPEN_OUTBOX_STATES = OUTBOX_STATES.filter((s) => s !== 'sent');
/** `bulk`: drafts and schedules, sent as a one-item bulk batch (idempotent by batch_id + item_key).
 *  `single`: publish-now (and posts with URL media), sent once through POST /api/cli/posts and reconciled. */
export type OutboxKind = 'bulk' | 'single';

export interface OutboxResult {
  readonly postId: string;
  readonly socialPostIds: readonly string[];
}
/** The failed delivery a create makes again (a retry), and why it failed: the new delivery's history. */
export interface RetryOf {
  readonly delivery_id: string;
  readonly post_id: string;
  readonly platform: string;
  readonly social_account_id: string;
  /** The service's reason (`last_error`), or null when it gave none. */
  readonly reason: string | null;
  readonly failed_at: string;
}

export interface OutboxFailure {
  readonly message: string;
  readonly status?: number;
  readonly code?: string | null;
}

export interface OutboxEntry {
  readonly id: string;
  readonly scope: string;
  readonly kind: OutboxKind;
  readonly state: OutboxState;
  readonly request: Readonly<CreatePostRequest>;
  readonly batchId: string | null;
  readonly itemKey: string | null;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly sentAt: number | null;
  readonly result: OutboxResult | null;
  /** For `failed`: why the service refused. For entries still waiting: the last transient error. */
  readonly error: OutboxFailure | null;
  /** Set when the create makes a failed delivery again. */
  readonly retryOf: RetryOf | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface FlushReport {
  readonly sent: number;
  readonly failed: number;
  readonly unconfirmed: number;
  /** Publishes Postdesk cannot tell were made or not; they wait for `retry` or `discard`. */
  readonly needsDecision: number;
  readonly pending: number;
  /** Set when flushing stopped early because every send would fail the same way (no API key). */
  readonly blocked: string | null;
}

export interface OutboxOptions {
  /** Which service the entries belong to (base URL, or "sandbox"); entries of other scopes are left alone. */
  scope?: string;
  /** How long after an unconfirmed send a listing must still show nothing before it is sent again. */
  settleMs?: number;
  /** How far apart the service's own clocks may be, when its `created_at` values are compared with each other. */
  serviceClockSlackMs?: number;
  /** Backoff after a transient failure: base * 2^attempts, capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  now?: () => number;
  /** Where failures the queue rides out (a listing that failed, a broken listener) are reported. */
  log?: Logger;
}

export interface Outbox {
  /** Validates and writes the create to the store. Nothing is sent until `flush()`. */
  enqueuePost(
    req: Readonly<CreatePostRequest> | Readonly<Record<string, unknown>>,
    opts?: { retryOf?: RetryOf },
  ): { entryId: string };
  /** The entry that makes this failed delivery again, unless it was refused (then it may be asked again). */
  retryOf(deliveryId: string): OutboxEntry | null;
  /** Every failed delivery retried and confirmed, by the id of each delivery its retry made. */
  retried(): Map<string, RetryOf>;
  /** Reconciles unconfirmed entries and sends due pending ones. */
  flush(opts?: { signal?: AbortSignal; force?: boolean }): Promise<FlushReport>;
  /** On start: takes back entries a dead process left in `sending`, then flushes. */
  replay(opts?: { signal?: AbortSignal }): Promise<FlushReport>;
  /** Flushes until the entry is sent or failed, or the time is up; returns the entry as it then is. */
  settle(entryId: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<OutboxEntry>;
  get(entryId: string): OutboxEntry | null;
  list(filter?: { states?: readonly OutboxState[]; limit?: number }): OutboxEntry[];
  /** Entries of this scope Postdesk is still working on: not sent, failed, nor waiting for a person's decision. */
  unfinishedCount(): number;
  /** Drops an entry that is not being sent right now (for `needs_decision`: the person says it was published). */
  discard(entryId: string): boolean;
  /** Puts a failed entry back in the queue; or a `needs_decision` one, when the person says it was not published. */
  retry(entryId: string): boolean;
  onDidChange(listener: (entry: OutboxEntry) => void): () => void;
}
