import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { BatchSummary, BulkPlan, BulkProgress, BulkSubmission } from '../../../src-shared/ipc/bulk';
import { LIMITS } from '../../../src-shared/api/limits';
import type { ApiClient } from '../api/client';
import { createBulk, type Bulk, type ImportReport } from '../bulk/bulk';
import { openBulkStore, type BatchRecord, type BulkStore } from '../bulk/bulk-store';
import { BulkFileError, readRows } from '../bulk/rows';
import { validateRows, type Validation } from '../bulk/validate';
import { connectedAccounts } from '../api/connected-accounts';
import { isReimport, planReimport, type PlannedUpdate, type PostLookup } from '../bulk/reimport';
import { sendUpdates } from '../bulk/update';
import type { RawRow } from '../bulk/rows';
import type { Store } from '../store/store';
import { BridgeFault, notConnected } from './bridge-fault';
import {
  batchSummaryOf,
  newPlanOf,
  progressReporter,
  submissionOf,
  updatePlanOf,
  updateSubmissionOf,
} from './bulk-views';
import type { BulkPlanSource, BulkPort } from './ports';
import type { Tools } from '../media/tools';
import { withoutTimeColumns } from '../bulk/queue-rows';
import { NoQueueError } from '../queue/place';
import type { QueueService } from '../queue/queue-service';
import { ensurePrivateDir, writePrivateFile } from '../files';

export interface BulkPortOptions {
  readonly store: Store;
  readonly client: () => ApiClient | null;
  /** "sandbox" for the embedded sandbox (its port changes per launch), else the base URL. */
  readonly scope: () => string;
  /** Where CSV text from the page is written, so the import has a file (its identity) like the CLI's. */
  readonly stagingDir: string;
  readonly timezone?: () => string;
  /** ffmpeg/ffprobe for checking media files (the settings' paths); default: bundled, then PATH. */
  readonly tools?: Tools | undefined;
  /**
   * The posts as last seen (the local delivery index), for a file with post_id: `refresh` brings them up to date
   * from the service, `lookup` reads one. Absent: such a file is refused.
   */
  readonly posts?: { refresh(): Promise<void>; lookup(): PostLookup } | undefined;
  /** The posting queue, for imports that fill its slots instead of reading times. */
  readonly queue?: (() => QueueService) | undefined;
}

const NO_SLOTS =
  'Some accounts in this file have no queue slots yet. Set their posting times on the Queue screen first, or import without the queue.';

const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function safeName(name: string | undefined): string {
  const base = basename((name ?? '').replace(/\\/g, '/'))
    .replace(/[^\w.\- ()]/g, '_')
    .slice(0, 120);
  return /\.(csv|json)$/i.test(base) ? base : `${base || 'import'}.csv`;
}

/** The core's bulk import (outbox-backed, idempotent batches) behind the bridge's plan → submit flow. */
export function createBulkPort(o: BulkPortOptions): BulkPort {
  const plans = new Map<string, { file: string; name: string | null; localMedia: boolean; queue: boolean }>();
  const queue = (): QueueService => {
    const q = o.queue?.();
    if (!q) throw new BridgeFault('unavailable', 'The posting queue is not available here.');
    return q;
  };
  /** Plans of files with post_id: the updates worked out against the posts, sent as they are. */
  const updatePlans = new Map<string, { updates: readonly PlannedUpdate[]; unchanged: number }>();
  let records: BulkStore | null = null;
  const store = () => (records ??= openBulkStore(o.store));
  const zone = () => o.timezone?.() ?? localZone();

  const summary = (b: BatchRecord): BatchSummary => batchSummaryOf(store(), b);

  const bulkFor = (progressId: string, onProgress: (p: BulkProgress) => void): Bulk => {
    const api = o.client();
    if (!api) throw notConnected();
    return createBulk({
      api,
      store: o.store,
      scope: o.scope(),
      defaultTimezone: zone(),
      tools: o.tools,
      onEvent: progressReporter(progressId, onProgress),
    });
  };

  const submission = (report: ImportReport, only?: (b: BatchRecord) => boolean): BulkSubmission =>
    submissionOf(store(), report, only);

  /** A file with post_id: each row against its post as the service shows it now; only what differs is planned. */
  async function planUpdate(planId: string, name: string | null, raw: readonly RawRow[]): Promise<BulkPlan> {
    if (!o.posts) throw new BridgeFault('unavailable', 'Updating posts from a file is not available here.');
    if (!o.client()) throw notConnected();
    await o.posts.refresh();
    const plan = planReimport(raw, { lookup: o.posts.lookup(), defaultTimezone: zone() });
    const { view, sent } = updatePlanOf(planId, name, raw, plan);
    updatePlans.set(planId, { updates: sent, unchanged: plan.unchanged.length });
    return view;
  }

  async function submitUpdate(
    planId: string,
    plan: { updates: readonly PlannedUpdate[]; unchanged: number },
    onProgress: (p: BulkProgress) => void,
  ): Promise<BulkSubmission> {
    const api = o.client();
    if (!api) throw notConnected();
    // Sent once: a second submit of the same plan would apply add_targets twice.
    updatePlans.delete(planId);
    const batchCount = Math.ceil(plan.updates.length / LIMITS.bulkBatchSize);
    const results = await sendUpdates(plan.updates, {
      api,
      onProgress: (done, total) =>
        onProgress({
          plan_id: planId,
          batch_index: Math.max(0, Math.ceil(done / LIMITS.bulkBatchSize) - 1),
          batch_count: batchCount,
          items_done: done,
          items_total: total,
        }),
    });
    return updateSubmissionOf(results, plan.unchanged);
  }

  return {
    async plan(source: BulkPlanSource, opts: { readonly queue?: boolean | undefined } = {}) {
      const planId = randomUUID();
      // Text came from a page: it may not name files on this computer.
      const localMedia = 'file' in source && source.localMedia;
      const { file, name } = await stagedSource(o.stagingDir, planId, source);
      const read = await readSource(file);
      if (isReimport(read.rows)) return planUpdate(planId, name, read.rows);
      // What the app knows before anything is sent: the connected accounts, and the same posts imported before.
      const api = o.client();
      const v = await validateRows(opts.queue ? withoutTimeColumns(read.rows) : read.rows, {
        baseDir: dirname(file),
        defaultTimezone: zone(),
        localMedia,
        accounts: api ? await connectedAccounts(api) : null,
      });
      const before = api
        ? await bulkFor(planId, () => undefined).importedBefore(file, { queue: opts.queue, localMedia })
        : null;
      // With the queue, each valid row is shown at the first slot it would take now (submitting reads them again).
      const slots =
        opts.queue && v.valid.length > 0 && v.problems.every((p) => p.row !== null)
          ? await firstSlots(queue(), v.valid)
          : { slotOf: new Map<number, string>(), queueIssues: [] };
      plans.set(planId, { file, name, localMedia, queue: opts.queue === true });
      return newPlanOf(planId, name, read.rows, v, {
        queue: opts.queue === true,
        ...slots,
        importedBefore: before,
      });
    },
    async submit(planId, onProgress) {
      const update = updatePlans.get(planId);
      if (update) return submitUpdate(planId, update, onProgress);
      const plan = plans.get(planId);
      if (!plan) throw new BridgeFault('not_found', 'That plan is gone; drop the file again.');
      const report = await bulkFor(planId, onProgress)
        .importFile(plan.file, {
          skipInvalid: true,
          localMedia: plan.localMedia,
          ...(plan.queue ? { queue: (rows) => queue().plan(rows) } : {}),
        })
        .catch((e: unknown) => {
          if (e instanceof NoQueueError) throw new BridgeFault('invalid_input', NO_SLOTS);
          throw e;
        });
      return submission(report);
    },
    async history() {
      const ids = store()
        .db.prepare<[string], { id: string }>(
          'SELECT id FROM bulk_imports WHERE scope = ? ORDER BY created_at DESC LIMIT 50',
        )
        .all(o.scope());
      return ids.flatMap(({ id }) => store().batches(id).map(summary));
    },
    async resubmitFailed(batchId, onProgress) {
      if (!store().batch(batchId)) throw new BridgeFault('not_found', 'That batch was not sent from here.');
      const report = await bulkFor(batchId, onProgress).resubmitFailed(batchId);
      return submission(report, (b) => b.resubmitOf === batchId);
    },
  };
}

/** The file a plan reads: the one given, or the page's text written to a private file of its own (its identity). */
async function stagedSource(
  stagingDir: string,
  planId: string,
  source: BulkPlanSource,
): Promise<{ file: string; name: string | null }> {
  if ('file' in source) return { file: source.file, name: source.name };
  const dir = join(stagingDir, planId);
  await ensurePrivateDir(dir);
  const file = join(dir, safeName(source.name));
  await writePrivateFile(file, source.text);
  return { file, name: source.name ?? null };
}

/** The file's rows; one that cannot be read is refused in the page's words. */
async function readSource(file: string): Promise<Awaited<ReturnType<typeof readRows>>> {
  try {
    return await readRows(file);
  } catch (e) {
    if (e instanceof BulkFileError)
      throw new BridgeFault(
        'invalid_input',
        `The file cannot be read: it is ${e.message.replace(`${file}: `, '')}.`,
      );
    throw new BridgeFault('invalid_input', 'The file could not be read.');
  }
}

/** The first slot the queue would give each row now; an account without slots is a problem of the file. */
async function firstSlots(
  queue: QueueService,
  valid: Validation['valid'],
): Promise<{ slotOf: Map<number, string>; queueIssues: { field: string; message: string }[] }> {
  const slotOf = new Map<number, string>();
  try {
    const placed = await queue.plan(valid);
    valid.forEach((r, i) => {
      const first = placed[i]?.[0];
      if (first) slotOf.set(r.row, first.at.toISOString());
    });
    return { slotOf, queueIssues: [] };
  } catch (e) {
    if (!(e instanceof NoQueueError)) throw e;
    return { slotOf, queueIssues: [{ field: 'targets', message: NO_SLOTS }] };
  }
}
