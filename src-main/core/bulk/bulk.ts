import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { BulkItem } from '../../../src-shared/api/bulk';
import { connectedAccounts } from '../api/connected-accounts';
import { createUploader } from '../media/upload';
import { openBulkStore, type NewBatch } from './bulk-store';
import { batchStatus, finishImport, priorOf, resubmitFailed } from './bulk-batches';
import type { Bulk, BulkContext, BulkOptions, ImportOptions, ImportReport } from './bulk-types';
import { importIdentity, legacyFingerprint } from './identity';
import { buildPlan, chunk, digestMedia } from './plan';
import { readRows } from './rows';
import { itemKeyOf, parseRows, validateRows } from './validate';
import { placeRows, withoutTimeColumns } from './queue-rows';
import type { PostRow } from './validate';

export {
  BulkInterruptedError,
  type BatchStatus,
  type BatchSummary,
  type Bulk,
  type BulkApi,
  type BulkEvent,
  type BulkOptions,
  type FailedRow,
  type ImportOptions,
  type ImportReport,
  type ImportState,
} from './bulk-types';

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

/**
 * Imports of posts as idempotent bulk batches: a file is identified by the posts it describes, so the same posts
 * are resumed or reported, never sent as a new import. Validating, planning and uploading are here; sending the
 * saved batches and reading them back, bulk-batches.ts.
 */
export function createBulk(opts: BulkOptions): Bulk {
  const { api } = opts;
  const scope = opts.scope ?? api.baseUrl;
  const emit: BulkContext['emit'] = (e) => opts.onEvent?.(e);
  const ctx: BulkContext = {
    api,
    scope,
    records: openBulkStore(opts.store),
    uploader:
      opts.uploader ??
      createUploader({
        api,
        store: opts.store,
        scope,
        tools: opts.tools,
        signal: opts.signal,
        onEvent: (event) => emit({ type: 'media', event }),
      }),
    emit,
    opts,
    concurrency: Math.max(1, opts.concurrency ?? 2),
    maxRounds: Math.max(1, opts.maxRounds ?? 6),
  };
  const { records } = ctx;

  return {
    records,
    async importedBefore(file, o = {}) {
      const { prior } = await identify(ctx, resolve(file), opts.defaultTimezone ?? localZone(), o);
      return prior ? priorOf(ctx, prior.id) : null;
    },
    async importFile(file, o = {}) {
      const abs = resolve(file);
      const zone = opts.defaultTimezone ?? localZone();
      const found = await identify(ctx, abs, zone, o);
      const { prior } = found;
      if (prior && !o.dryRun) {
        const pending = records.batches(prior.id).filter((b) => b.state === 'pending').length;
        if (pending) emit({ type: 'resuming', importId: prior.id, pending });
        return finishImport(ctx, file, prior.id, true);
      }
      return importNew(ctx, file, abs, zone, found, o);
    },
    async resumeImports() {
      const out: ImportReport[] = [];
      for (const imp of records.unfinishedImports(scope)) {
        emit({
          type: 'resuming',
          importId: imp.id,
          pending: records.batches(imp.id).filter((b) => b.state === 'pending').length,
        });
        out.push(await finishImport(ctx, imp.source, imp.id, true));
      }
      return out;
    },
    batchStatus: (batchId) => batchStatus(ctx, batchId),
    resubmitFailed: (batchId) => resubmitFailed(ctx, batchId),
  };
}

type Identified = Awaited<ReturnType<typeof identify>>;

/** The file's rows, its identity, and the import of the same posts made before (null with `again`). */
async function identify(
  ctx: BulkContext,
  abs: string,
  zone: string,
  o: { readonly queue?: unknown; readonly again?: boolean; readonly localMedia?: boolean | undefined },
) {
  const { records, scope } = ctx;
  const fileRows = await readRows(abs);
  const read = o.queue ? { ...fileRows, rows: withoutTimeColumns(fileRows.rows) } : fileRows;
  const baseDir = dirname(abs);
  // The posts the rows describe are the import's identity, so the same posts are never sent as a new import.
  const fingerprint =
    (o.queue ? 'queue:' : '') +
    (await importIdentity(
      // A row naming a file it may not (a CSV a page sent) is dropped here too: that file is never read.
      parseRows(read.rows, { baseDir, defaultTimezone: zone, localMedia: o.localMedia }).rows,
      ctx.uploader.media,
      ctx.opts.signal,
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

/**
 * A file not imported before (or again): its rows validated and planned; unless invalid or a dry run, its media
 * uploaded, its batches saved before the first request, then sent.
 */
async function importNew(
  ctx: BulkContext,
  file: string,
  abs: string,
  zone: string,
  { read, fingerprint, prior }: Identified,
  o: ImportOptions,
): Promise<ImportReport> {
  const { api, opts, uploader, scope, records, emit } = ctx;
  const validation = await validateRows(read.rows, {
    baseDir: dirname(abs),
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
    (sha) => uploader.media.findByHash(scope, sha)?.state === 'completed',
  );
  const base = {
    file,
    importId: null,
    resumed: false,
    plan,
    problems: validation.problems,
    warnings: validation.warnings,
    importedBefore: prior ? priorOf(ctx, prior.id) : null,
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
  return finishImport(ctx, file, importId, false, {
    plan,
    problems: validation.problems,
    warnings: validation.warnings,
    uploads,
  });
}
