import { randomUUID } from 'node:crypto';
import type { BulkCreateRequest, BulkItemResult } from '../../../src-shared/api/bulk';
import { ApiError, NetworkError } from '../api/errors';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';
import { retry } from '../common/retry';
import type { BatchRecord, NewBatch } from './bulk-store';
import {
  BulkInterruptedError,
  BulkUnknownBatchError,
  type BatchStatus,
  type BulkContext,
  type FailedRow,
  type ImportReport,
} from './bulk-types';
import { chunk } from './plan';

const isTransient = (err: unknown): boolean =>
  err instanceof NetworkError || (err instanceof ApiError && (err.status === 429 || err.status >= 500));

/** One batch until the service answers: identical body every round; a refusal of the whole batch is final. */
async function sendBatch(ctx: BulkContext, b: BatchRecord): Promise<'sent' | 'rejected' | 'pending'> {
  const { api, records, emit, maxRounds } = ctx;
  const { signal } = ctx.opts;
  const request = JSON.parse(b.body) as BulkCreateRequest;
  const noteRetry = (err: unknown, round: number): void => {
    const reason = errorText(err);
    records.recordAttempt(b.batchId, reason);
    emit({ type: 'batch-retry', batchId: b.batchId, seq: b.seq, attempt: round, reason });
  };
  try {
    const res = await retry(() => api.bulkCreate(request, { signal }), {
      attempts: maxRounds,
      minDelayMs: 500,
      maxDelayMs: 8_000,
      signal,
      shouldRetry: isTransient,
      onRetry: noteRetry,
    });
    records.recordResults(b.batchId, res.items);
    emit({
      type: 'batch-sent',
      batchId: b.batchId,
      seq: b.seq,
      items: request.items.length,
      created: res.created_count,
      failed: res.failed_count,
    });
    return 'sent';
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof ApiError && !isTransient(err)) {
      if (err.status === 401 || err.status === 403) throw err;
      records.reject(b.batchId, err.message);
      emit({ type: 'batch-rejected', batchId: b.batchId, seq: b.seq, error: err.message });
      return 'rejected';
    }
    if (!isTransient(err)) throw err;
    // Every round went unanswered: recorded like the others, and left for the next run to resume.
    noteRetry(err, maxRounds);
    return 'pending';
  }
}

/** Sends the import's pending batches, `concurrency` at a time; any still unconfirmed stop it (to be resumed). */
async function sendPending(ctx: BulkContext, importId: string): Promise<void> {
  const { records } = ctx;
  const pending = records.batches(importId).filter((b) => b.state === 'pending');
  const stuck: string[] = [];
  let firstError: unknown = null;
  const slot = createLimit(ctx.concurrency);
  await Promise.all(
    pending.map((b) =>
      slot(async () => {
        // After a failure that stops the import, the batches still waiting are left as they are.
        if (firstError) return void stuck.push(b.batchId);
        try {
          if ((await sendBatch(ctx, b)) === 'pending') stuck.push(b.batchId);
        } catch (err) {
          firstError ??= err;
          stuck.push(b.batchId);
        }
      }),
    ),
  );
  if (firstError) throw firstError;
  if (stuck.length) {
    const last = records.batch(stuck[0] as string)?.error ?? 'no answer';
    throw new BulkInterruptedError(importId, stuck, last);
  }
}

/** The service's own record of a batch, page by page, saved over the local one. Reading is safe to repeat. */
async function readBack(ctx: BulkContext, batchId: string): Promise<BulkItemResult[]> {
  const { signal } = ctx.opts;
  const results = await retry(
    async () => {
      const read: BulkItemResult[] = [];
      for await (const r of ctx.api.iterateBulkResults(batchId, { signal })) read.push(r);
      return read;
    },
    { attempts: ctx.maxRounds, minDelayMs: 250, maxDelayMs: 8_000, signal, shouldRetry: isTransient },
  );
  if (results.length > 0) ctx.records.recordResults(batchId, results);
  return results;
}

/** The import's batches and rows as the local record now has them; a row created on resubmission is not failed. */
function summarize(
  ctx: BulkContext,
  importId: string,
): Pick<ImportReport, 'batches' | 'created' | 'failed' | 'failedRows'> {
  const { records } = ctx;
  const batches = records.batches(importId);
  const failedRows: FailedRow[] = [];
  const createdRows = new Set<number>();
  let created = 0;
  for (const b of batches) {
    for (const it of records.items(b.batchId)) {
      if (it.status === 'created') {
        created += 1;
        createdRows.add(it.row);
      }
      if (it.status === 'failed')
        failedRows.push({ row: it.row, batchId: b.batchId, itemKey: it.itemKey, error: it.error });
    }
  }
  const stillFailed = failedRows.filter((f) => !createdRows.has(f.row));
  return {
    batches: batches.map((b) => ({
      batchId: b.batchId,
      seq: b.seq,
      items: records.items(b.batchId).length,
      state: b.state,
      created: b.createdCount,
      failed: b.failedCount,
      resubmitOf: b.resubmitOf,
      error: b.error,
    })),
    created,
    failed: stillFailed.length,
    failedRows: stillFailed,
  };
}

/** When the import was first made, for "Imported before". */
export function priorOf(ctx: BulkContext, importId: string): ImportReport['importedBefore'] {
  const imp = ctx.records.getImport(importId);
  return imp ? { importId, createdAt: imp.createdAt } : null;
}

/** Sends what of the import is still pending, reads every sent batch back, and reports the import. */
export async function finishImport(
  ctx: BulkContext,
  file: string,
  importId: string,
  resumed: boolean,
  extra: Partial<ImportReport> = {},
): Promise<ImportReport> {
  await sendPending(ctx, importId);
  for (const b of ctx.records.batches(importId)) if (b.state === 'sent') await readBack(ctx, b.batchId);
  const sum = summarize(ctx, importId);
  return {
    file,
    state: sum.batches.some((b) => b.state === 'rejected') ? 'rejected' : 'done',
    importId,
    resumed,
    plan: null,
    problems: [],
    warnings: [],
    importedBefore: resumed ? priorOf(ctx, importId) : null,
    uploads: [],
    ...extra,
    ...sum,
  };
}

/** The batch's results read back from the service (paged), with local row numbers. */
export async function batchStatus(ctx: BulkContext, batchId: string): Promise<BatchStatus> {
  const { records } = ctx;
  const local = records.batch(batchId);
  const results = await readBack(ctx, batchId);
  const rowOf = new Map(local ? records.items(batchId).map((i) => [i.itemKey, i.row]) : []);
  const created = results.filter((r) => r.status === 'created').length;
  return {
    batchId,
    importId: local?.importId ?? null,
    total: results.length,
    created,
    failed: results.length - created,
    items: results.map((r) => ({ ...r, row: rowOf.get(r.item_key) ?? null })),
  };
}

/** Sends the failed items of a batch again, as new batches of the same import. */
export async function resubmitFailed(ctx: BulkContext, batchId: string): Promise<ImportReport> {
  const { records } = ctx;
  const local = records.batch(batchId);
  if (!local) throw new BulkUnknownBatchError(batchId);
  if (local.state === 'pending') await sendPending(ctx, local.importId);
  const results = await readBack(ctx, batchId);
  const failedKeys = new Set(results.filter((r) => r.status === 'failed').map((r) => r.item_key));
  const request = JSON.parse(local.body) as BulkCreateRequest;
  const items = request.items.filter((i) => failedKeys.has(i.item_key));
  const imp = records.getImport(local.importId);
  const file = imp?.source ?? batchId;
  if (items.length === 0) return finishImport(ctx, file, local.importId, true);
  const rowOf = new Map(records.items(batchId).map((i) => [i.itemKey, i.row]));
  const fresh: NewBatch[] = chunk(items).map((part) => ({
    request: { batch_id: randomUUID(), items: part },
    rows: new Map(part.map((i) => [i.item_key, rowOf.get(i.item_key) ?? 0])),
    resubmitOf: batchId,
  }));
  records.addBatches(local.importId, fresh);
  ctx.emit({ type: 'planned', importId: local.importId, batches: fresh.length, items: items.length });
  return finishImport(ctx, file, local.importId, true);
}
