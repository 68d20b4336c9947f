import type { ApiClient } from '../api/client';
import { ApiError, isRefusal } from '../api/errors';
import { errorText } from '../common/error-text';
import type { ChangePlan, ChangePlans } from '../outbox/change-plans';
import { batches, type BatchProgress } from './bulk-update';

export interface RecordedSendOptions {
  /** How many times an entry whose answer was lost is sent again before it is left `unknown` (default 5). */
  readonly attempts?: number;
  /** The first wait between those sends, doubled each time (default 250 ms). */
  readonly delayMs?: number;
  readonly onProgress?: (p: BatchProgress) => void;
  readonly signal?: AbortSignal;
}

/**
 * Sends a recorded plan's unsettled entries through `PATCH /api/cli/posts/bulk` until each is settled: applied
 * (`done`), refused (`failed`), or, when the service never answered, still `unknown` (never `failed`: it may have
 * been applied). A lost answer is settled by reading the entry's state back from the service, which, for an entry
 * that carries its result (an absolute time), is the same request again: the service answers where the post now
 * is, whether the first send landed or not, and nothing moves twice. Every outcome is in the store before the
 * next request, so a run killed at any point is finished by the next one from the same record.
 */
export async function sendRecorded(
  client: Pick<ApiClient, 'bulkUpdate'>,
  plans: ChangePlans,
  planId: string,
  opts: RecordedSendOptions = {},
): Promise<{ plan: ChangePlan; requests: number }> {
  const attempts = opts.attempts ?? 5;
  const delayMs = opts.delayMs ?? 250;
  let requests = 0;
  for (let round = 0; round < attempts; round++) {
    const plan = plans.get(planId);
    if (!plan) throw new Error('the recorded change is gone');
    const open = plan.items.filter((i) => i.state === 'pending' || i.state === 'unknown');
    if (open.length === 0) break;
    if (round > 0) await new Promise((r) => setTimeout(r, delayMs * 2 ** (round - 1)));
    const total = plan.items.length;
    let settledSoFar = total - open.length;
    for (const batch of batches(open)) {
      opts.signal?.throwIfAborted();
      plans.sending(
        planId,
        batch.map((i) => i.seq),
      );
      requests += 1;
      try {
        const res = await client.bulkUpdate({ updates: batch.map((i) => i.update) }, { signal: opts.signal });
        batch.forEach((item, i) => {
          const r = res.results.find((x) => x.index === i) ?? res.results[i];
          if (!r)
            plans.settle(planId, item.seq, {
              state: 'unknown',
              error: 'The service gave no result for this post.',
            });
          else if (r.ok) plans.settle(planId, item.seq, { state: 'done' });
          else
            plans.settle(planId, item.seq, {
              state: 'failed',
              error: r.error ?? 'The service did not apply this change.',
              code: r.code ?? null,
            });
        });
      } catch (err) {
        const code = err instanceof ApiError ? (err.wireCode ?? String(err.status)) : null;
        const state = isRefusal(err) ? 'failed' : 'unknown';
        for (const item of batch) plans.settle(planId, item.seq, { state, error: errorText(err), code });
      }
      settledSoFar += batch.length;
      opts.onProgress?.({ done: settledSoFar, total });
    }
  }
  return { plan: plans.get(planId) as ChangePlan, requests };
}
