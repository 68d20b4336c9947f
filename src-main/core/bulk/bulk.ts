import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { Account } from '../../../src-shared/api/accounts';
import type { BulkCreateRequest, BulkItem, BulkItemResult } from '../../../src-shared/api/bulk';
import type { ApiClient } from '../api/client';
import { ApiError, NetworkError, PostdeskError } from '../api/errors';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';
import { retry } from '../common/retry';
import { createUploader } from '../media/upload';
import type { MediaApi, UploadEvent, UploadOutcome, Uploader } from '../media/upload';
import type { Tools } from '../media/tools';
import type { Store } from '../store/store';
import { openBulkStore } from './bulk-store';
import type { BatchRecord, BulkStore, NewBatch } from './bulk-store';
import { importIdentity, legacyFingerprint } from './identity';
import { buildPlan, chunk, digestMedia } from './plan';
import type { ImportPlan } from './plan';
import { readRows } from './rows';
import { itemKeyOf, parseRows, validateRows } from './validate';
import { placeRows, withoutTimeColumns, type QueuePlacer } from './queue-rows';
import type { PostRow, RowProblem } from './validate';

export type BulkApi = MediaApi &
  Pick<ApiClient, 'bulkCreate' | 'bulkInspect' | 'bulkUpdate' | 'iterateBulkResults' | 'listAccounts'>;

export type BulkEvent =
  | { readonly type: 'validated'; readonly total: number; readonly valid: number; readonly problems: number }
  | { readonly type: 'media'; readonly event: UploadEvent }
  | { readonly type: 'planned'; readonly importId: string; readonly batches: number; readonly items: number }
  | { readonly type: 'resuming'; readonly importId: string; readonly pending: number }
  | {
      readonly type: 'batch-sent';
      readonly batchId: string;
      readonly seq: number;
      readonly items: number;
      readonly created: number;
      readonly failed: number;
    }
  | {
      readonly type: 'batch-retry';
      readonly batchId: string;
      readonly seq: number;
      readonly attempt: number;
      readonly reason: string;
    }
  | {
      readonly type: 'batch-rejected';
      readonly batchId: string;
      readonly seq: number;
      readonly error: string;
    };

export interface BulkOptions {
  readonly api: BulkApi;
  readonly store: Store;
  /** Which service records belong to (base URL by default; the CLI says "sandbox" for its in-process sandbox). */
  readonly scope?: string | undefined;
  readonly uploader?: Uploader | undefined;
  /** Batches in flight at once. */
  readonly concurrency?: number | undefined;
  /** Rounds of sending one batch (each already retried inside the client) before the import pauses. */
  readonly maxRounds?: number | undefined;
  readonly onEvent?: ((e: BulkEvent) => void) | undefined;
  readonly defaultTimezone?: string | undefined;
  readonly now?: (() => Date) | undefined;
  readonly tools?: Tools | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface BatchSummary {
  readonly batchId: string;
  readonly seq: number;
  readonly items: number;
  readonly state: BatchRecord['state'];
  readonly created: number | null;
  readonly failed: number | null;
  readonly resubmitOf: string | null;
  readonly error: string | null;
}

export interface FailedRow {
  readonly row: number;
  readonly batchId: string;
  readonly itemKey: string;
  readonly error: string | null;
}

/**
 * `invalid`: rows failed validation, nothing was sent. `dry-run`: only the plan. `upload-failed`: a media upload
 * failed, no post was sent. `done`: every batch answered (some items may still have failed). `rejected`: the
 * service refused a whole batch.
 */
export type ImportState = 'invalid' | 'dry-run' | 'upload-failed' | 'done' | 'rejected';

export interface ImportReport {
  readonly file: string;
  readonly state: ImportState;
  readonly importId: string | null;
  /** The same file was imported before; its batches were resumed or reported, not created again. */
  readonly resumed: boolean;
  readonly plan: ImportPlan | null;
  readonly problems: readonly RowProblem[];
  /** What a platform may refuse but need not (its own rule, which the service does not state); nothing is held. */
  readonly warnings: readonly RowProblem[];
  /**
   * The same posts were imported before (found at the dry run too): Submit reports that import and sends
   * nothing again, unless `again`.
   */
  readonly importedBefore: { readonly importId: string; readonly createdAt: string } | null;
  readonly uploads: readonly UploadOutcome[];
  readonly batches: readonly BatchSummary[];
  readonly created: number;
  readonly failed: number;
  readonly failedRows: readonly FailedRow[];
}

/** Sending stopped with batches still unconfirmed; running the same import again resumes them. */
export class BulkInterruptedError extends PostdeskError {
  readonly importId: string;
  readonly pending: readonly string[];
  constructor(importId: string, pending: readonly string[], cause: string) {
    super(
      `${pending.length} batch(es) of import ${importId} are not confirmed yet (${cause}); run the same command again to resume: the batches are sent unchanged and the service creates nothing twice`,
    );
    this.importId = importId;
    this.pending = pending;
  }
  protected override details(): Record<string, unknown> {
    return { importId: this.importId, pending: this.pending };
  }
}

export interface ImportOptions {
  readonly dryRun?: boolean;
  /** Import a file again that was imported before (new batches, new posts). */
  readonly again?: boolean;
  /** Send the valid rows even when others are invalid. */
  readonly skipInvalid?: boolean;
  /** False: rows may not name media files on this computer (a CSV a page sent); see `validateRows`. */
  readonly localMedia?: boolean;
  /**
   * Fill queue slots instead of reading a time: the `scheduled_at`, `timezone` and `action` columns are not read,
   * and each row's targets go to the next free slots this places them in. The import's identity is the rows
   * without times (plus "queue"), so the same file imported again resumes or reports the first import, at the
   * slots it was given then, rather than filling new ones.
   */
  readonly queue?: QueuePlacer;
}

export interface Bulk {
  importFile(file: string, opts?: ImportOptions): Promise<ImportReport>;
  /** The import of the same posts made before, if any: what the dry run says as "Imported before". */
  importedBefore(
    file: string,
    opts?: { readonly queue?: boolean | undefined; readonly localMedia?: boolean | undefined },
  ): Promise<ImportReport['importedBefore']>;
  /** Sends every batch a crash left unconfirmed. */
  resumeImports(): Promise<ImportReport[]>;
  /** The batch's results read back from the service (paged), with local row numbers. */
  batchStatus(batchId: string): Promise<BatchStatus>;
  /** Sends the failed items of a batch again, as a new batch. */
  resubmitFailed(batchId: string): Promise<ImportReport>;
  readonly records: BulkStore;
}

export interface BatchStatus {
  readonly batchId: string;
  readonly importId: string | null;
  readonly total: number;
  readonly created: number;
  readonly failed: number;
  readonly items: readonly (BulkItemResult & { readonly row: number | null })[];
}

const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function itemOf(row: PostRow, assets: ReadonlyMap<string, string>): BulkItem {
  const media = row.media.map((m) => ({
    asset_id: m.kind === 'asset' ? m.assetId : (assets.get(m.path) as string),
  }));
  return {
    item_key: itemKeyOf(row),
    caption: row.caption,
    ...(row.title !== undefined ? { title: row.title } : {}),
    ...(media.length ? { media } : {}),
    targets: [...row.targets],
    ...(row.action === 'draft' ? { action: 'draft' as const } : {}),
    ...(row.scheduledAt ? { scheduled_at: row.scheduledAt } : {}),
  };
}

// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the batches in flight and the local record); each method is short and named
export function createBulk(opts: BulkOptions): Bulk {
  const { api } = opts;
  const scope = opts.scope ?? api.baseUrl;
  const records = openBulkStore(opts.store);
  const emit = (e: BulkEvent): void => opts.onEvent?.(e);
  const uploader =
    opts.uploader ??
    createUploader({
      api,
      store: opts.store,
      scope,
      tools: opts.tools,
      signal: opts.signal,
      onEvent: (event) => emit({ type: 'media', event }),
    });
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const maxRounds = Math.max(1, opts.maxRounds ?? 6);

  const isTransient = (err: unknown): boolean =>
    err instanceof NetworkError || (err instanceof ApiError && (err.status === 429 || err.status >= 500));

  /** One batch until the service answers: identical body every round; a refusal of the whole batch is final. */
  async function sendBatch(b: BatchRecord): Promise<'sent' | 'rejected' | 'pending'> {
    const request = JSON.parse(b.body) as BulkCreateRequest;
    const noteRetry = (err: unknown, round: number): void => {
      const reason = errorText(err);
      records.recordAttempt(b.batchId, reason);
      emit({ type: 'batch-retry', batchId: b.batchId, seq: b.seq, attempt: round, reason });
    };
    try {
      const res = await retry(() => api.bulkCreate(request, { signal: opts.signal }), {
        attempts: maxRounds,
        minDelayMs: 500,
        maxDelayMs: 8_000,
        signal: opts.signal,
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
      if (opts.signal?.aborted) throw err;
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

  async function sendPending(importId: string): Promise<void> {
    const pending = records.batches(importId).filter((b) => b.state === 'pending');
    const stuck: string[] = [];
    let firstError: unknown = null;
    const slot = createLimit(concurrency);
    await Promise.all(
      pending.map((b) =>
        slot(async () => {
          // After a failure that stops the import, the batches still waiting are left as they are.
          if (firstError) return void stuck.push(b.batchId);
          try {
            if ((await sendBatch(b)) === 'pending') stuck.push(b.batchId);
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
  async function readBack(batchId: string): Promise<BulkItemResult[]> {
    const results = await retry(
      async () => {
        const read: BulkItemResult[] = [];
        for await (const r of api.iterateBulkResults(batchId, { signal: opts.signal })) read.push(r);
        return read;
      },
      {
        attempts: maxRounds,
        minDelayMs: 250,
        maxDelayMs: 8_000,
        signal: opts.signal,
        shouldRetry: isTransient,
      },
    );
    if (results.length > 0) records.recordResults(batchId, results);
    return results;
  }

  function summarize(importId: string): Pick<ImportReport, 'batches' | 'created' | 'failed' | 'failedRows'> {
    const batches = records.batches(importId);
    const failedRows: FailedRow[] = [];
    let created = 0;
    for (const b of batches) {
      for (const it of records.items(b.batchId)) {
        if (it.status === 'created') created += 1;
        if (it.status === 'failed')
          failedRows.push({ row: it.row, batchId: b.batchId, itemKey: it.itemKey, error: it.error });
      }
    }
    // A row that failed and was created on resubmission is no longer failed.
    const createdRows = new Set(
      batches.flatMap((b) =>
        records
          .items(b.batchId)
          .filter((i) => i.status === 'created')
          .map((i) => i.row),
      ),
    );
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

  async function finishImport(
    file: string,
    importId: string,
    resumed: boolean,
    extra: Partial<ImportReport> = {},
  ): Promise<ImportReport> {
    await sendPending(importId);
    for (const b of records.batches(importId)) if (b.state === 'sent') await readBack(b.batchId);
    const sum = summarize(importId);
    return {
      file,
      state: sum.batches.some((b) => b.state === 'rejected') ? 'rejected' : 'done',
      importId,
      resumed,
      plan: null,
      problems: [],
      warnings: [],
      importedBefore: resumed ? priorOf(importId) : null,
      uploads: [],
      ...extra,
      ...sum,
    };
  }

  /** The file's rows, its identity, and the import of the same posts made before (null with `again`). */
  async function identify(
    abs: string,
    zone: string,
    o: { readonly queue?: unknown; readonly again?: boolean; readonly localMedia?: boolean | undefined },
  ) {
    const fileRows = await readRows(abs);
    const read = o.queue ? { ...fileRows, rows: withoutTimeColumns(fileRows.rows) } : fileRows;
    const baseDir = dirname(abs);
    // The posts the rows describe are the import's identity, so the same posts are never sent as a new import.
    const fingerprint =
      (o.queue ? 'queue:' : '') +
      (await importIdentity(
        // A row naming a file it may not (a CSV a page sent) is dropped here too: that file is never read.
        parseRows(read.rows, { baseDir, defaultTimezone: zone, localMedia: o.localMedia }).rows,
        uploader.media,
        opts.signal,
      ));
    // The identity names the accounts by the service's own ids, which no other service has: an import made
    // through another way of reaching the same service ("Try offline", then its address) is the same import.
    const prior = o.again
      ? null
      : (records.findImport(scope, fingerprint) ??
        records.findImportAnywhere(fingerprint) ??
        // A queue import is new in kind: no import from before the change was one.
        (o.queue ? null : records.findImport(scope, legacyFingerprint(read.bytes, zone))));
    return { read, fingerprint, prior };
  }

  const priorOf = (importId: string): ImportReport['importedBefore'] => {
    const imp = records.getImport(importId);
    return imp ? { importId, createdAt: imp.createdAt } : null;
  };

  const bulk: Bulk = {
    records,
    async importedBefore(file, o = {}) {
      const { prior } = await identify(resolve(file), opts.defaultTimezone ?? localZone(), o);
      return prior ? priorOf(prior.id) : null;
    },
    async importFile(file, o = {}) {
      const abs = resolve(file);
      const zone = opts.defaultTimezone ?? localZone();
      const { read, fingerprint, prior } = await identify(abs, zone, o);
      const baseDir = dirname(abs);
      if (prior && !o.dryRun) {
        const pending = records.batches(prior.id).filter((b) => b.state === 'pending').length;
        if (pending) emit({ type: 'resuming', importId: prior.id, pending });
        return finishImport(file, prior.id, true);
      }

      const validation = await validateRows(read.rows, {
        baseDir,
        defaultTimezone: zone,
        now: opts.now?.(),
        tools: opts.tools,
        localMedia: o.localMedia,
        accounts: await connectedAccounts(api, opts.signal),
      });
      emit({
        type: 'validated',
        total: validation.total,
        valid: validation.valid.length,
        problems: validation.problems.length,
      });
      const blocking =
        validation.problems.length > 0 && (!o.skipInvalid || validation.problems.some((p) => p.row === null));
      const chosen = blocking ? [] : validation.valid;
      // The queue's slots are read now, once: the batches saved below keep them.
      const rows = o.queue && chosen.length ? placeRows(chosen, await o.queue(chosen)) : chosen;
      const digests = await digestMedia(rows, uploader.media, opts.signal);
      const plan = buildPlan(
        validation.total,
        blocking ? validation.valid : rows,
        validation.problems,
        digests,
        (sha) => {
          const rec = uploader.media.findByHash(scope, sha);
          return rec?.state === 'completed';
        },
      );
      const base = {
        file,
        importId: null,
        resumed: false,
        plan,
        problems: validation.problems,
        warnings: validation.warnings,
        importedBefore: prior ? priorOf(prior.id) : null,
        uploads: [],
        batches: [],
        created: 0,
        failed: 0,
        failedRows: [],
      };
      if (blocking) return { ...base, state: 'invalid' };
      if (o.dryRun) return { ...base, state: 'dry-run' };

      // Media first, one upload per distinct content; posts reference the resulting asset ids.
      const uploads = await uploader.uploadMany(plan.uploads.map((u) => u.path));
      const bySha = new Map<string, string>();
      uploads.forEach((u, i) => {
        const sha = plan.uploads[i]?.sha256;
        if (u.ok && sha) bySha.set(sha, u.result.assetId);
      });
      if (uploads.some((u) => !u.ok)) return { ...base, state: 'upload-failed', uploads };
      const assets = new Map<string, string>();
      for (const [path, d] of digests) assets.set(path, bySha.get(d.sha256) as string);

      const importId = randomUUID();
      const batches: NewBatch[] = chunk(rows).map((part) => ({
        request: { batch_id: randomUUID(), items: part.map((r) => itemOf(r, assets)) },
        rows: new Map(part.map((r) => [itemKeyOf(r), r.row])),
      }));
      // Saved before the first request: from here on the import only ever resends these exact batches.
      records.createImport(
        { id: importId, scope, fingerprint, source: abs, rowCount: validation.total },
        batches,
      );
      emit({ type: 'planned', importId, batches: batches.length, items: rows.length });
      return finishImport(file, importId, false, {
        plan,
        problems: validation.problems,
        warnings: validation.warnings,
        uploads,
      });
    },

    async resumeImports() {
      const out: ImportReport[] = [];
      for (const imp of records.unfinishedImports(scope)) {
        emit({
          type: 'resuming',
          importId: imp.id,
          pending: records.batches(imp.id).filter((b) => b.state === 'pending').length,
        });
        out.push(await finishImport(imp.source, imp.id, true));
      }
      return out;
    },

    async batchStatus(batchId) {
      const local = records.batch(batchId);
      const results = await readBack(batchId);
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
    },

    async resubmitFailed(batchId) {
      const local = records.batch(batchId);
      if (!local) {
        throw new BulkUnknownBatchError(batchId);
      }
      if (local.state === 'pending') await sendPending(local.importId);
      const results = await readBack(batchId);
      const failedKeys = new Set(results.filter((r) => r.status === 'failed').map((r) => r.item_key));
      const request = JSON.parse(local.body) as BulkCreateRequest;
      const items = request.items.filter((i) => failedKeys.has(i.item_key));
      const imp = records.getImport(local.importId);
      const file = imp?.source ?? batchId;
      if (items.length === 0) return finishImport(file, local.importId, true);
      const rowOf = new Map(records.items(batchId).map((i) => [i.itemKey, i.row]));
      const fresh: NewBatch[] = chunk(items).map((part) => ({
        request: { batch_id: randomUUID(), items: part },
        rows: new Map(part.map((i) => [i.item_key, rowOf.get(i.item_key) ?? 0])),
        resubmitOf: batchId,
      }));
      records.addBatches(local.importId, fresh);
      emit({ type: 'planned', importId: local.importId, batches: fresh.length, items: items.length });
      return finishImport(file, local.importId, true);
    },
  };
  return bulk;
}

/**
 * The owner's connected accounts, for the dry run's target check; null when the service cannot be asked now
 * (offline): the rows are then checked without them, and the service has the last word.
 */
export async function connectedAccounts(
  api: Pick<ApiClient, 'listAccounts'>,
  signal?: AbortSignal,
): Promise<readonly Account[] | null> {
  try {
    return (await api.listAccounts({ signal })).accounts;
  } catch (err) {
    if (err instanceof NetworkError) return null;
    throw err;
  }
}

export class BulkUnknownBatchError extends PostdeskError {
  constructor(readonly batchId: string) {
    super(
      `batch ${batchId} was not sent from this machine's store, so its items cannot be resubmitted; \`postdesk bulk status ${batchId}\` shows its results`,
    );
  }
}
