import type { BulkItem } from '../../../src-shared/api/bulk';
import type { CreatePostRequest } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { ApiError, CredentialMissingError, NetworkError, ValidationError, isRefusal } from '../api/errors';
import { errorText } from '../common/error-text';
import { readWindows, snapshotBeforeSend, type WindowCache } from './lookup';
import { judge } from './match';
import type { OutboxTable, Row } from './outbox-table';
import type { OutboxFailure, OutboxResult } from './outbox-types';

/** Every send would fail the same way (no key, no keychain): flushing stops, and says why. */
export class Blocked extends Error {}

/** What sending an entry, and looking for a lost one, needs besides the entry. */
export interface SendContext {
  readonly table: OutboxTable;
  readonly client: ApiClient;
  /** How long after an unconfirmed send a listing must still show nothing before it is sent again. */
  readonly settleMs: number;
  /** How far apart the service's own clocks may be, when its `created_at` values are compared with each other. */
  readonly slackMs: number;
  /** When an entry that failed for the `attempts`-th time may be sent again. */
  readonly backoff: (attempts: number) => number;
}

export function failureOf(err: unknown): OutboxFailure {
  if (err instanceof ApiError) return { message: err.message, status: err.status, code: err.wireCode };
  return { message: errorText(err) };
}

/** Failures raised before a request leaves this machine (no key, no keychain), not by the service or network. */
export function isLocalFailure(err: unknown): boolean {
  return (
    err instanceof CredentialMissingError ||
    !(err instanceof ApiError || err instanceof NetworkError || err instanceof ValidationError)
  );
}

const resultOf = (postId: string, socialPostIds: readonly string[]): string =>
  JSON.stringify({ postId, socialPostIds } satisfies OutboxResult);

/**
 * Sends one due entry, once claimed: a `bulk` one as a one-item batch (idempotent by batch id and item key), a
 * `single` one through POST /api/cli/posts, after noting what the lists showed before it (for reconciling).
 */
export async function sendOne(ctx: SendContext, r: Row, signal?: AbortSignal): Promise<void> {
  const { table, client } = ctx;
  if (!table.move(r.id, 'pending', 'sending', { owner: table.owner, attempts: r.attempts + 1 })) return;
  const req = JSON.parse(r.request) as CreatePostRequest;
  if (r.kind === 'bulk') return sendBulk(ctx, r, req, signal);

  // single: remember which identical posts already exist, and how far the list reached, so reconciliation can
  // tell ours apart and knows which windows reach back before the send.
  let snapshot: Awaited<ReturnType<typeof snapshotBeforeSend>>;
  try {
    snapshot = await snapshotBeforeSend(client, req, signal);
  } catch (err) {
    onSendError(ctx, r, err, false);
    return;
  }
  table.db
    .prepare(
      `UPDATE outbox_entries SET sent_at = ?, known_post_ids = ?, fence_at = ?, updated_at = ?
       WHERE id = ? AND state = ?`,
    )
    .run(table.now(), JSON.stringify(snapshot.known), snapshot.fenceAt, table.iso(), r.id, 'sending');
  try {
    const res = await client.createPost(req, { signal });
    table.move(r.id, 'sending', 'sent', {
      owner: null,
      error: null,
      result: resultOf(
        res.post.id,
        res.social_posts.map((d) => d.id),
      ),
    });
  } catch (err) {
    // A 2xx whose body broke the contract (INVALID_RESPONSE) did create the post.
    const mayHaveLanded =
      (err instanceof NetworkError && err.maybeCommitted) ||
      (err instanceof ApiError && (err.status >= 500 || err.status < 400));
    onSendError(ctx, r, err, mayHaveLanded);
  }
}

async function sendBulk(
  ctx: SendContext,
  r: Row,
  req: CreatePostRequest,
  signal?: AbortSignal,
): Promise<void> {
  const { table } = ctx;
  try {
    const res = await ctx.client.bulkCreate(
      { batch_id: r.batch_id as string, items: [bulkItem(r, req)] },
      { signal },
    );
    const item = res.items.find((i) => i.item_key === r.item_key);
    if (item?.status === 'created' && item.post_id) {
      table.move(r.id, 'sending', 'sent', {
        owner: null,
        error: null,
        result: resultOf(item.post_id, item.social_post_ids),
      });
    } else if (item?.status === 'failed') {
      table.move(r.id, 'sending', 'failed', {
        owner: null,
        error: JSON.stringify({ message: item.error ?? 'the service refused the item' }),
      });
    } else {
      onSendError(ctx, r, new Error('the bulk result does not list this item'), false);
    }
  } catch (err) {
    onSendError(ctx, r, err, false);
  }
}

function bulkItem(r: Row, req: CreatePostRequest): BulkItem {
  const item: BulkItem = {
    item_key: r.item_key as string,
    caption: req.caption,
    targets: req.targets,
  };
  if (req.title !== undefined) item.title = req.title;
  if (req.media && req.media.length > 0) {
    item.media = req.media.map((m) => ({ asset_id: (m as { asset_id: string }).asset_id }));
  }
  if (req.action === 'draft') item.action = 'draft';
  if (req.scheduled_at !== undefined) item.scheduled_at = req.scheduled_at;
  return item;
}

/** After a failed send: refusal → failed, transient → pending with backoff (or unconfirmed if it may have landed). */
function onSendError(ctx: SendContext, r: Row, err: unknown, mayHaveLanded: boolean): void {
  const { table } = ctx;
  const error = JSON.stringify(failureOf(err));
  if (isLocalFailure(err)) {
    // No key, or no keychain: the request never left, and every other entry would fail the same way.
    table.move(r.id, 'sending', 'pending', { owner: null, sent_at: null, attempts: r.attempts, error });
    throw new Blocked(failureOf(err).message);
  }
  if (isRefusal(err)) {
    table.move(r.id, 'sending', 'failed', { owner: null, error });
  } else if (mayHaveLanded && r.kind === 'single') {
    table.move(r.id, 'sending', 'unconfirmed', { owner: null, error });
  } else {
    table.move(r.id, 'sending', 'pending', {
      owner: null,
      sent_at: null,
      error,
      next_attempt_at: ctx.backoff(r.attempts + 1),
    });
  }
}

/**
 * Looks for an unconfirmed (or undecided) publish in the narrowed posts lists. Found: sent. After the settle
 * interval, proven never created: sent again; anything less than proof: `needs_decision`, never a second send.
 */
export async function reconcile(
  ctx: SendContext,
  r: Row,
  cache: WindowCache,
  listedAt: number,
  signal?: AbortSignal,
): Promise<void> {
  const { table } = ctx;
  const req = JSON.parse(r.request) as CreatePostRequest;
  const windows = await readWindows(ctx.client, req, cache, signal);
  const verdict = judge(windows, req, {
    known: new Set(r.known_post_ids ? (JSON.parse(r.known_post_ids) as string[]) : []),
    taken: table.claimedPostIds(),
    fenceAt: r.fence_at,
    slackMs: ctx.slackMs,
  });
  if (verdict.kind === 'found') {
    table.move(r.id, r.state, 'sent', {
      result: resultOf(verdict.postId, verdict.socialPostIds),
      error: null,
    });
    return;
  }
  if (r.state !== 'unconfirmed' || r.sent_at === null || listedAt - r.sent_at < ctx.settleMs) return;
  if (verdict.kind === 'absent') {
    // The lost request never created anything: send it again.
    table.move(r.id, 'unconfirmed', 'pending', { next_attempt_at: table.now(), sent_at: null });
  } else {
    table.move(r.id, 'unconfirmed', 'needs_decision');
  }
}
