import {
  BulkCreateRequest,
  BulkInspectQuery,
  BulkUpdate,
  BulkUpdateList,
  LIMITS,
  type BulkItemResult,
  type BulkResult,
  type BulkUpdateResponse,
  type BulkUpdateResult,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { insertRows, stmt, transact } from '../db';
import { SandboxError, zodToSandboxError } from '../errors';
import { parse } from '../validate';
import { hashBulkItem } from './item-hash';
import { accountsById } from './accounts';
import { insertParsedPost } from './create';
import { updatePost } from './update';
import { writePendingRows, type PendingRows } from './write-rows';

interface ItemRow {
  item_key: string;
  idx: number;
  request_hash: string;
  status: 'created' | 'failed';
  post_id: string | null;
  social_post_ids: string;
  error: string | null;
}

const ITEM_COLUMNS = [
  'owner_id',
  'batch_id',
  'item_key',
  'idx',
  'request_hash',
  'status',
  'post_id',
  'social_post_ids',
  'error',
  'created_at',
] as const;

/** An item's result; `ids` when the caller holds them already (a new item), not only their stored text. */
const itemJson = (r: ItemRow, ids?: string[]): BulkItemResult => ({
  item_key: r.item_key,
  index: r.idx,
  status: r.status,
  post_id: r.post_id,
  social_post_ids: ids ?? (JSON.parse(r.social_post_ids) as string[]),
  error: r.error,
});

/**
 * `POST /api/cli/posts/bulk`. The whole request runs in one SQLite transaction over a unique index on
 * (owner, batch_id, item_key): an item seen before with the same content returns its stored result
 * and creates nothing; with other content the request answers 409 and nothing of it is applied. A new
 * item whose targets or media are invalid is stored as `failed` (a retry returns that result).
 */
export function bulkCreate(
  ctx: SandboxContext,
  ownerId: string,
  body: unknown,
): BulkResult & { replayed_count: number } {
  const req = parse(BulkCreateRequest, body);
  const keys = new Set<string>();
  req.items.forEach((item, i) => {
    if (keys.has(item.item_key)) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `items.${i}.item_key: duplicate key ${JSON.stringify(item.item_key)} in the batch`,
      );
    }
    keys.add(item.item_key);
  });
  const iso = ctx.clock.now().toISOString();
  const db = ctx.db;
  return transact(db, () => {
    const hashes = req.items.map(hashBulkItem);
    // One read of what the batch already holds (usually nothing), not one per item.
    const held = new Map(
      (
        stmt(db, 'SELECT * FROM bulk_items WHERE owner_id = ? AND batch_id = ?').all(
          ownerId,
          req.batch_id,
        ) as ItemRow[]
      ).map((r) => [r.item_key, r]),
    );
    const existing = req.items.map((item) => held.get(item.item_key));
    const accounts = accountsById(ctx, ownerId);
    existing.forEach((row, i) => {
      if (row && row.request_hash !== hashes[i]) {
        throw new SandboxError(
          409,
          'BULK_IDEMPOTENCY_CONFLICT',
          `items.${i}.item_key: ${JSON.stringify(row.item_key)} was already used in batch ${req.batch_id} for a different item`,
        );
      }
    });
    stmt(db, 'INSERT OR IGNORE INTO bulk_batches (owner_id, batch_id, created_at) VALUES (?, ?, ?)').run(
      ownerId,
      req.batch_id,
      iso,
    );
    // `held` is every item of the batch: the next index follows theirs without another read.
    let nextIdx = 0;
    for (const r of held.values()) nextIdx = Math.max(nextIdx, r.idx + 1);
    let replayed = 0;
    // Every item is checked before anything is written, so the rows wait and go in together at the end.
    const pending: PendingRows = { posts: [], deliveries: [] };
    const itemRows: unknown[] = [];
    const results = req.items.map((item, i): BulkItemResult => {
      const prior = existing[i];
      if (prior) {
        replayed += 1;
        return itemJson(prior);
      }
      let row: ItemRow;
      let ids: string[] = [];
      try {
        const created = insertParsedPost(ctx, ownerId, item, {
          source: 'bulk',
          batchId: req.batch_id,
          itemKey: item.item_key,
          accounts,
          pending,
        });
        ids = created.deliveryIds;
        row = {
          item_key: item.item_key,
          idx: nextIdx,
          request_hash: hashes[i]!,
          status: 'created',
          post_id: created.postId,
          social_post_ids: JSON.stringify(ids),
          error: null,
        };
      } catch (err) {
        if (!(err instanceof SandboxError) || err.status !== 400) throw err;
        row = {
          item_key: item.item_key,
          idx: nextIdx,
          request_hash: hashes[i]!,
          status: 'failed',
          post_id: null,
          social_post_ids: '[]',
          error: err.message,
        };
      }
      nextIdx += 1;
      itemRows.push(
        ownerId,
        req.batch_id,
        row.item_key,
        row.idx,
        row.request_hash,
        row.status,
        row.post_id,
        row.social_post_ids,
        row.error,
        iso,
      );
      return itemJson(row, ids);
    });
    writePendingRows(ctx, pending);
    insertRows(db, 'bulk_items', ITEM_COLUMNS, itemRows);
    const created = results.filter((r) => r.status === 'created').length;
    return {
      batch_id: req.batch_id,
      total: results.length,
      created_count: created,
      failed_count: results.length - created,
      replayed_count: replayed,
      offset: 0,
      limit: results.length,
      items: results,
      next: null,
    };
  });
}

/** `GET /api/cli/posts/bulk`: a page of the batch's item results in batch order. */
export function bulkInspect(ctx: SandboxContext, ownerId: string, query: unknown): BulkResult {
  const q = parse(BulkInspectQuery, query);
  const offset = q.offset ?? 0;
  const limit = q.limit ?? LIMITS.pageSizeDefault.bulkInspect;
  // An unknown (or foreign) batch is an empty result: the contract lists no 404 for this operation.
  const counts = stmt(
    ctx.db,
    `SELECT COUNT(*) AS total, SUM(CASE WHEN status = 'created' THEN 1 ELSE 0 END) AS created
     FROM bulk_items WHERE owner_id = ? AND batch_id = ?`,
  ).get(ownerId, q.batch_id) as { total: number; created: number | null };
  const rows = stmt(
    ctx.db,
    'SELECT * FROM bulk_items WHERE owner_id = ? AND batch_id = ? ORDER BY idx LIMIT ? OFFSET ?',
  ).all(ownerId, q.batch_id, limit, offset) as ItemRow[];
  const nextOffset = offset + rows.length;
  return {
    batch_id: q.batch_id,
    total: counts.total,
    created_count: counts.created ?? 0,
    failed_count: counts.total - (counts.created ?? 0),
    offset,
    limit,
    items: rows.map((r) => itemJson(r)),
    next:
      nextOffset < counts.total
        ? `/api/cli/posts/bulk?batch_id=${q.batch_id}&offset=${nextOffset}&limit=${limit}`
        : null,
  };
}

const postIdOf = (entry: unknown): string | null => {
  const id = (entry as { post_id?: unknown } | null)?.post_id;
  return typeof id === 'string' && id !== '' ? id : null;
};

/** One entry: parsed, then applied like `PATCH /api/cli/posts`; any refusal is this entry's result alone. */
function applyUpdate(ctx: SandboxContext, ownerId: string, entry: unknown, index: number): BulkUpdateResult {
  const parsed = BulkUpdate.safeParse(entry);
  if (!parsed.success) {
    const err = zodToSandboxError(parsed.error, { code: 'INVALID_POST_UPDATE' });
    return {
      index,
      post_id: postIdOf(entry),
      ok: false,
      status: 400,
      error: err.message,
      code: 'INVALID_POST_UPDATE',
    };
  }
  const u = parsed.data;
  try {
    const { social_posts } = updatePost(ctx, ownerId, {
      id: u.post_id,
      ...(u.caption !== undefined ? { caption: u.caption } : {}),
      ...(u.scheduled_at !== undefined ? { scheduled_at: u.scheduled_at } : {}),
      ...(u.add_targets !== undefined ? { add_targets: u.add_targets } : {}),
    });
    return { index, post_id: u.post_id, ok: true, social_posts };
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    return {
      index,
      post_id: u.post_id,
      ok: false,
      status: err.status,
      error: err.message,
      code: err.code ?? 'INVALID_POST_UPDATE',
    };
  }
}

/**
 * `PATCH /api/cli/posts/bulk`: each entry judged and applied on its own, with a result per entry in request
 * order. Only a body that is not an update list, or one with 0 or more than 100 entries, is refused whole.
 * The entries share one transaction (one commit); a refused entry rolls back only its own savepoint.
 */
export function bulkUpdate(ctx: SandboxContext, ownerId: string, body: unknown): BulkUpdateResponse {
  const req = parse(BulkUpdateList, body);
  const results = transact(ctx.db, () =>
    req.updates.map((entry, index) => applyUpdate(ctx, ownerId, entry, index)),
  );
  const updated = results.filter((r) => r.ok).length;
  const failed = results.length - updated;
  return {
    total: results.length,
    updated_count: updated,
    failed_count: failed,
    results,
    // The contract types `next` as a string: a hint for the next step, like the media reservation's.
    next:
      failed > 0
        ? `${failed} update(s) were not applied (results with ok: false say why); fix and send only those again`
        : 'every update was applied; GET /api/cli/posts shows the deliveries',
  };
}
