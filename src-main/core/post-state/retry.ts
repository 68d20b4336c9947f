import { canDo, whyNot } from '../../../src-shared/api/delivery-transitions';
import type { Delivery } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Outbox, OutboxEntry, RetryOf } from '../outbox/outbox';
import { recreateRequest } from './recreate';

/** When the new delivery goes out: now, or at a time (a chosen one, or the account's next queue slot). */
export type RetryWhen = { readonly scheduled_at?: string | undefined };

export interface RetryResult {
  /** The failed delivery retried. */
  readonly delivery_id: string;
  /** `sent`: the new post exists and the failed delivery is gone (or going); `queued`: safe in the outbox, sent
   *  later, the failed delivery removed once it is; `needs_decision`: a publish whose answer was lost, see the outbox. */
  readonly state: 'sent' | 'queued' | 'needs_decision';
  /** The new post, once the service confirmed it. */
  readonly post_id: string | null;
  readonly entry_id: string;
  /** Whether the failed delivery was removed (it stays, beside the new one, until the new one is confirmed). */
  readonly removed: boolean;
  /** An earlier retry of this delivery was found and finished rather than made again. */
  readonly resumed: boolean;
}

/** A delivery that cannot be retried: why, in words for a person. */
export class RetryRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryRefusedError';
  }
}

/** The service refused the new post: its words. */
export class RetryFailedError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string | null,
  ) {
    super(message);
    this.name = 'RetryFailedError';
  }
}

/** What the outbox keeps of a failed delivery retried, shown in the new delivery's history. */
export function retryRecordOf(failed: Readonly<Delivery>): RetryOf {
  return {
    delivery_id: failed.id,
    post_id: failed.post_id,
    platform: failed.platform,
    social_account_id: failed.social_account_id,
    reason: failed.last_error ?? null,
    failed_at: failed.updated_at,
  };
}

/** Removes the failed delivery once its retry is confirmed; gone already counts as removed. */
export async function removeRetried(
  client: Pick<ApiClient, 'deletePost'>,
  entry: Readonly<OutboxEntry>,
): Promise<boolean> {
  if (entry.state !== 'sent' || !entry.retryOf) return false;
  try {
    await client.deletePost(entry.retryOf.delivery_id);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return true;
    throw err;
  }
}

/**
 * Makes the same post again for the failed delivery's account, exactly once through the outbox, then removes the
 * failed delivery. The outbox entry names the delivery it retries (with the service's reason), and the outbox makes
 * one entry per failed delivery, so a second click, a second process, or a run after a crash finishes the first
 * retry instead of making another. `failed` is the delivery as last known; `platformName` words a refusal.
 */
export async function retryDelivery(
  deps: {
    readonly outbox: Outbox;
    readonly client: Pick<ApiClient, 'deletePost'>;
    readonly settleMs?: number;
  },
  failed: Readonly<Delivery>,
  when: RetryWhen,
  platformName: string = failed.platform,
): Promise<RetryResult> {
  const earlier = deps.outbox.retryOf(failed.id);
  if (!earlier && !canDo(failed.status, 'retry'))
    throw new RetryRefusedError(
      whyNot(failed.status, 'retry', platformName) ?? 'This post cannot be retried.',
    );
  let entryId: string;
  if (earlier) entryId = earlier.id;
  else {
    const base = recreateRequest([failed]);
    if (!base) throw new RetryRefusedError('That post is no longer known here.');
    entryId = deps.outbox.enqueuePost(
      { ...base, ...(when.scheduled_at ? { scheduled_at: when.scheduled_at } : {}) },
      { retryOf: retryRecordOf(failed) },
    ).entryId;
  }
  const entry = await deps.outbox.settle(entryId, { timeoutMs: deps.settleMs ?? 15_000 });
  if (entry.state === 'failed') {
    // Refused: nothing was made, so the next retry may ask again (with another time, say).
    deps.outbox.discard(entry.id);
    throw new RetryFailedError(
      entry.error?.message ?? 'The service refused the post.',
      entry.error?.status,
      entry.error?.code,
    );
  }
  const base = { delivery_id: failed.id, entry_id: entry.id, resumed: earlier !== null };
  if (entry.state !== 'sent')
    return {
      ...base,
      state: entry.state === 'needs_decision' ? 'needs_decision' : 'queued',
      post_id: null,
      removed: false,
    };
  return {
    ...base,
    state: 'sent',
    post_id: entry.result?.postId ?? null,
    removed: await removeRetried(deps.client, entry),
  };
}

/** A delivery as the pages see it: one a retry made carries the failure it replaced (`retried_after`). */
export function withRetryHistory(d: Delivery, retried: ReadonlyMap<string, RetryOf>): Delivery {
  const of = retried.get(d.id);
  return of ? { ...d, retried_after: { reason: of.reason, failed_at: of.failed_at } } : d;
}

/** The failed deliveries of a post, the ones "Retry all failed" makes again. */
export const failedOf = (deliveries: readonly Delivery[]): Delivery[] =>
  deliveries.filter((d) => canDo(d.status, 'retry'));
