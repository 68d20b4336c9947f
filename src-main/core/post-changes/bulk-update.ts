import { STILL_SCHEDULED_STATUSES, canDo } from '../../../src-shared/api/delivery-transitions';
import { LIMITS } from '../../../src-shared/api/limits';
import type { BulkUpdate } from '../../../src-shared/api/bulk';
import type { Delivery } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { ApiError, isRefusal } from '../api/errors';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';

/** What happened to one entry: the service's own result, or the whole request's failure when it had none. */
export interface UpdateOutcome {
  readonly post_id: string;
  readonly ok: boolean;
  /** Why it was not applied (the service's reason, or why the request failed); null when applied. */
  readonly error: string | null;
  readonly code: string | null;
  readonly deliveries: readonly Delivery[];
  /** The service never answered for it: it may have been applied. Never reported as a refusal. */
  readonly unknown?: boolean;
}

/** Thrown by an `applyEach` step whose change was sent and never answered: its outcome is unknown, not failed. */
export class ChangeUnanswered extends Error {
  constructor() {
    super(UNKNOWN_WORDS);
    this.name = 'ChangeUnanswered';
  }
}

/** Why an outcome is unknown, for a person. */
export const UNKNOWN_WORDS =
  'The service did not answer, so it may have applied this change. Retry sends the same time again; nothing moves twice.';

/** `items` cut into runs of at most `size` (the contract's bulk limit by default), in order. */
export function batches<T>(items: readonly T[], size: number = LIMITS.bulkUpdateSize): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BatchProgress {
  readonly done: number;
  readonly total: number;
}

/**
 * Sends `updates` through `PATCH /api/cli/posts/bulk`, 100 at a time, one request after another, and answers one
 * outcome per update in the same order. The service applies each entry on its own, so a refused entry fails alone;
 * a request that failed whole (network, 401, 5xx) fails each of its entries with that reason and the next batch
 * is still sent. Every entry carries an absolute time, so sending a failed one again never moves a post twice.
 */
export async function updateInBatches(
  client: Pick<ApiClient, 'bulkUpdate'>,
  updates: readonly BulkUpdate[],
  onProgress?: (p: BatchProgress) => void,
  /**
   * Entries that carry their result (absolute times) may be sent again when an answer is lost: the service's
   * answer to the same request settles what the lost one did. `addTargets` must not (it would add twice).
   */
  opts: { resendLost?: number; delayMs?: number } = {},
): Promise<UpdateOutcome[]> {
  const outcomes: UpdateOutcome[] = [];
  const send = async (batch: BulkUpdate[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.bulkUpdate({ updates: batch });
      } catch (err) {
        if (isRefusal(err) || attempt >= (opts.resendLost ?? 0)) throw err;
        await new Promise((r) => setTimeout(r, (opts.delayMs ?? 250) * 2 ** attempt));
      }
    }
  };
  for (const batch of batches(updates)) {
    try {
      const res = await send(batch);
      batch.forEach((u, i) => {
        // Results come in request order; `index` says so explicitly when present.
        const r = res.results.find((x) => x.index === i) ?? res.results[i];
        outcomes.push(
          r
            ? {
                post_id: u.post_id,
                ok: r.ok,
                error: r.ok ? null : (r.error ?? 'The service did not apply this change.'),
                code: r.ok ? null : (r.code ?? null),
                deliveries: r.social_posts ?? [],
              }
            : failed(u.post_id, 'The service gave no result for this post.', null),
        );
      });
    } catch (err) {
      const code = err instanceof ApiError ? (err.wireCode ?? String(err.status)) : null;
      const lost = !isRefusal(err);
      for (const u of batch)
        outcomes.push(
          lost
            ? { ...failed(u.post_id, UNKNOWN_WORDS, 'UNKNOWN'), unknown: true }
            : failed(u.post_id, errorText(err), code),
        );
    }
    onProgress?.({ done: outcomes.length, total: updates.length });
  }
  return outcomes;
}

export function failed(post_id: string, error: string, code: string | null): UpdateOutcome {
  return { post_id, ok: false, error, code, deliveries: [] };
}

/** A post as these plans see it: its id and the time its still-scheduled deliveries share (null: none). */
export interface Timed {
  readonly post_id: string;
  readonly scheduled_at: string | null;
}

/** The time a post's deliveries are scheduled at: the first still scheduled (or draft with a time), else null. */
export function scheduledTimeOf(
  deliveries: readonly Pick<Delivery, 'status' | 'scheduled_at'>[],
): string | null {
  const movable = deliveries.find(
    (d) => (STILL_SCHEDULED_STATUSES.includes(d.status) || canDo(d.status, 'schedule')) && d.scheduled_at,
  );
  return movable?.scheduled_at ?? null;
}

export interface Plan {
  readonly updates: BulkUpdate[];
  /** Posts left out, with why (no time to shift). */
  readonly skipped: UpdateOutcome[];
}

/** Each post's time moved by `byMs` (negative: earlier), as absolute times. */
export function planShift(posts: readonly Timed[], byMs: number): Plan {
  const updates: BulkUpdate[] = [];
  const skipped: UpdateOutcome[] = [];
  for (const p of posts) {
    const at = p.scheduled_at ? Date.parse(p.scheduled_at) : NaN;
    if (Number.isNaN(at)) skipped.push(failed(p.post_id, 'This post has no scheduled time to move.', null));
    else updates.push({ post_id: p.post_id, scheduled_at: new Date(at + byMs).toISOString() });
  }
  return { updates, skipped };
}

/**
 * The posts placed evenly from `from` to `to` (both included), keeping their order by current time (posts with
 * no time last, in the order given). One post goes at `from`.
 */
export function planSpread(posts: readonly Timed[], from: string, to: string): Plan {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const ordered = posts
    .map((p, i) => ({ p, i, t: p.scheduled_at ? Date.parse(p.scheduled_at) : Infinity }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.p);
  const step = ordered.length > 1 ? (end - start) / (ordered.length - 1) : 0;
  return {
    updates: ordered.map((p, i) => ({
      post_id: p.post_id,
      // Whole minutes: a spread reads as 09:00, 09:24…, not 09:24:17.
      scheduled_at: new Date(Math.round((start + step * i) / 60_000) * 60_000).toISOString(),
    })),
    skipped: [],
  };
}

/** `2d`, `-3h`, `90m`, `+1d`: a signed amount of days, hours or minutes, in ms; null when not of that form. */
export function parseShift(text: string): number | null {
  const m = /^([+-]?)(\d{1,6})\s*(d|h|m)$/i.exec(text.trim());
  if (!m) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[3]!.toLowerCase() as 'd' | 'h' | 'm'];
  const n = Number(m[2]) * unit;
  return m[1] === '-' ? -n : n;
}

/**
 * What the bulk update cannot carry (cancel to draft, delete): one request per id, a few at a time, each with its
 * own outcome. `apply` answers the deliveries it changed (none for a delete).
 */
export async function applyEach(
  ids: readonly string[],
  apply: (id: string) => Promise<readonly Delivery[]>,
  onProgress?: (p: BatchProgress) => void,
): Promise<UpdateOutcome[]> {
  const slot = createLimit(EACH_PARALLEL);
  let done = 0;
  return Promise.all(
    ids.map((id) =>
      slot(async (): Promise<UpdateOutcome> => {
        try {
          const deliveries = await apply(id);
          return { post_id: id, ok: true, error: null, code: null, deliveries };
        } catch (err) {
          if (err instanceof ChangeUnanswered)
            return { ...failed(id, UNKNOWN_WORDS, 'UNKNOWN'), unknown: true };
          const code = err instanceof ApiError ? (err.wireCode ?? String(err.status)) : null;
          return failed(id, errorText(err), code);
        } finally {
          done += 1;
          onProgress?.({ done, total: ids.length });
        }
      }),
    ),
  );
}

const EACH_PARALLEL = 4;
