import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type {
  BatchSummary,
  BulkPlan,
  BulkProgress,
  BulkRow,
  BulkSubmission,
} from '../../../src-shared/ipc/bulk';
import { LIMITS } from '../../../src-shared/api/limits';
import type { ApiClient } from '../api/client';
import { createBulk, type Bulk, type BulkEvent, type ImportReport } from '../bulk/bulk';
import { openBulkStore, type BatchRecord, type BulkStore } from '../bulk/bulk-store';
import { BulkFileError, readRows } from '../bulk/rows';
import { validateRows } from '../bulk/validate';
import { connectedAccounts } from '../api/connected-accounts';
import { reasonInWords } from '../bulk/service-reason';
import { isReimport, planReimport, type PlannedUpdate, type PostLookup } from '../bulk/reimport';
import { chunk } from '../bulk/plan';
import { sendUpdates } from '../bulk/update';
import type { RawRow } from '../bulk/rows';
import type { Store } from '../store/store';
import { BridgeFault, forPeople, notConnected } from './bridge-fault';
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

function stateOf(b: BatchRecord): BatchSummary['state'] {
  if (b.state === 'pending') return 'pending';
  if (b.state === 'rejected') return 'failed';
  if ((b.failedCount ?? 0) === 0) return 'submitted';
  return (b.createdCount ?? 0) > 0 ? 'partial' : 'failed';
}

/**
 * A problem of an import as the app shows it: the core writes them for the command line too, so what only
 * suits it (where to look up an id there) is said the app's way here.
 */
function bulkIssueForPeople(message: string): string {
  const id = /^account id "(.*)" must be a uuid/.exec(message);
  if (id) return `"${id[1]}" is not an account's id; the Accounts screen shows the id of each account`;
  return forPeople(message);
}

/** The core's bulk import (outbox-backed, idempotent batches) behind the bridge's plan → submit flow. */
// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the plans made and not yet submitted); each method is short and named
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

  const summary = (b: BatchRecord): BatchSummary => {
    const imp = store().getImport(b.importId);
    return {
      batch_id: b.batchId,
      created_at: imp?.createdAt ?? new Date().toISOString(),
      source_name: imp ? basename(imp.source) : null,
      total: store().items(b.batchId).length,
      created_count: b.createdCount ?? 0,
      failed_count: b.failedCount ?? 0,
      state: stateOf(b),
    };
  };

  const bulkFor = (progressId: string, onProgress: (p: BulkProgress) => void): Bulk => {
    const api = o.client();
    if (!api) throw notConnected();
    let batchCount = 0;
    let itemsTotal = 0;
    let itemsDone = 0;
    return createBulk({
      api,
      store: o.store,
      scope: o.scope(),
      defaultTimezone: zone(),
      tools: o.tools,
      onEvent: (e: BulkEvent) => {
        if (e.type === 'planned') {
          batchCount = e.batches;
          itemsTotal = e.items;
        } else if (e.type === 'batch-sent') {
          itemsDone += e.items;
          onProgress({
            plan_id: progressId,
            batch_index: e.seq,
            batch_count: Math.max(batchCount, e.seq + 1),
            items_done: itemsDone,
            items_total: Math.max(itemsTotal, itemsDone),
          });
        }
      },
    });
  };

  const submission = (report: ImportReport, only?: (b: BatchRecord) => boolean): BulkSubmission => {
    if (report.state === 'invalid') {
      throw new BridgeFault('invalid_input', 'No row can be sent: fix the problems the plan lists first.');
    }
    if (report.state === 'upload-failed') {
      const why = report.uploads.find((u) => !u.ok);
      throw new BridgeFault(
        'api',
        `A media file of the import could not be uploaded${why && !why.ok ? `: ${why.error.message}` : ''}.`,
      );
    }
    const batches = report.importId
      ? store()
          .batches(report.importId)
          .filter(only ?? (() => true))
      : [];
    const views = batches.map(summary);
    // Each row's real outcome, the latest batch's answer winning (a resubmission after a failure).
    const outcome = new Map<
      number,
      { row: number; status: 'created' | 'failed' | 'pending'; reason: string | null }
    >();
    for (const b of report.importId ? store().batches(report.importId) : []) {
      for (const it of store().items(b.batchId)) {
        if (outcome.get(it.row)?.status === 'created') continue;
        const status = it.status === 'created' || it.status === 'failed' ? it.status : 'pending';
        outcome.set(it.row, {
          row: it.row,
          status,
          reason:
            status === 'failed'
              ? forPeople(reasonInWords(it.error ?? 'The service refused this row.'))
              : null,
        });
      }
    }
    return {
      batches: views,
      rows: [...outcome.values()].sort((a, b) => a.row - b.row),
      created_count: views.reduce((n, b) => n + b.created_count, 0),
      failed_count: views.reduce((n, b) => n + b.failed_count, 0),
      ...(report.resumed ? { already_imported: true } : {}),
    };
  };

  /** A file with post_id: each row against its post as the service shows it now; only what differs is planned. */
  async function planUpdate(planId: string, name: string | null, raw: readonly RawRow[]): Promise<BulkPlan> {
    if (!o.posts) throw new BridgeFault('unavailable', 'Updating posts from a file is not available here.');
    if (!o.client()) throw notConnected();
    await o.posts.refresh();
    const plan = planReimport(raw, { lookup: o.posts.lookup(), defaultTimezone: zone() });
    const byRow = new Map(plan.updates.map((u) => [u.row, u]));
    const same = new Set(plan.unchanged.map((u) => u.row));
    const fileIssues = plan.problems
      .filter((p) => p.row === null)
      .map((p) => ({ field: p.field ?? '', message: bulkIssueForPeople(p.message) }));
    const rows: BulkRow[] = raw.map((r) => {
      const u = byRow.get(r.row);
      const issues = plan.problems
        .filter((p) => p.row === r.row)
        .map((p) => ({ field: p.field ?? '', message: bulkIssueForPeople(p.message) }));
      const postId = typeof r.fields.post_id === 'string' ? r.fields.post_id.trim() : '';
      return {
        line: r.line ?? r.row + 1,
        row: r.row,
        item_key: null,
        ok: issues.length === 0 && (Boolean(u) || same.has(r.row)),
        issues,
        caption: typeof r.fields.caption === 'string' ? r.fields.caption : null,
        action: null,
        scheduled_at: u?.update.scheduled_at ?? null,
        target_count: u?.update.add_targets?.length ?? 0,
        media_count: 0,
        ...(postId ? { post_id: postId } : {}),
        changes: [...(u?.changed ?? [])],
      };
    });
    // Nothing is sent while any row is wrong: an export edited by hand is fixed and dropped again.
    const blocked = plan.problems.length > 0;
    const updates = blocked ? [] : plan.updates;
    updatePlans.set(planId, { updates, unchanged: plan.unchanged.length });
    return {
      plan_id: planId,
      source_name: name,
      rows,
      valid_count: updates.length,
      invalid_count: rows.filter((r) => !r.ok).length,
      batches: chunk(updates).map((part, index) => ({ index, item_count: part.length })),
      ...(fileIssues.length ? { file_issues: fileIssues } : {}),
      mode: 'update',
      unchanged_count: plan.unchanged.length,
    };
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
    const count = (s: string) => results.filter((r) => r.status === s).length;
    return {
      batches: [],
      created_count: 0,
      failed_count: count('failed'),
      updated_count: count('updated'),
      unchanged_count: plan.unchanged,
      unknown_count: count('unknown'),
      failures: results
        .filter((r) => r.status !== 'updated')
        .map((r) => ({
          row: r.row,
          message:
            r.status === 'unknown'
              ? 'The service did not answer, so this change may or may not have been made. Check the post before trying again.'
              : forPeople(r.error ?? 'The service refused this change.'),
        })),
    };
  }

  return {
    async plan(source: BulkPlanSource, opts: { readonly queue?: boolean | undefined } = {}) {
      const planId = randomUUID();
      let file: string;
      let name: string | null;
      // Text came from a page: it may not name files on this computer.
      const localMedia = 'file' in source && source.localMedia;
      if ('file' in source) {
        file = source.file;
        name = source.name;
      } else {
        name = source.name ?? null;
        const dir = join(o.stagingDir, planId);
        await ensurePrivateDir(dir);
        file = join(dir, safeName(source.name));
        await writePrivateFile(file, source.text);
      }
      let read;
      try {
        read = await readRows(file);
      } catch (e) {
        if (e instanceof BulkFileError)
          throw new BridgeFault(
            'invalid_input',
            `The file cannot be read: it is ${e.message.replace(`${file}: `, '')}.`,
          );
        throw new BridgeFault('invalid_input', 'The file could not be read.');
      }
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
      const valid = new Map(v.valid.map((r) => [r.row, r]));
      // With the queue, each valid row is shown at the first slot it would take now (submitting reads them again).
      const slotOf = new Map<number, string>();
      const queueIssues: { field: string; message: string }[] = [];
      if (opts.queue && v.valid.length > 0 && v.problems.every((p) => p.row !== null)) {
        try {
          const placed = await queue().plan(v.valid);
          v.valid.forEach((r, i) => {
            const first = placed[i]?.[0];
            if (first) slotOf.set(r.row, first.at.toISOString());
          });
        } catch (e) {
          if (!(e instanceof NoQueueError)) throw e;
          queueIssues.push({ field: 'targets', message: NO_SLOTS });
        }
      }
      const rows: BulkRow[] = read.rows.map((raw) => {
        const ok = valid.get(raw.row);
        const issues = v.problems
          .filter((p) => p.row === raw.row)
          .map((p) => ({ field: p.field ?? '', message: bulkIssueForPeople(p.message) }));
        const warnings = v.warnings
          .filter((p) => p.row === raw.row)
          .map((p) => ({ field: p.field ?? '', message: p.message }));
        return {
          line: raw.line ?? raw.row + 1,
          row: raw.row,
          item_key: ok ? `row-${raw.row}` : null,
          ok: Boolean(ok) && issues.length === 0,
          issues,
          caption: ok?.caption ?? (typeof raw.fields.caption === 'string' ? raw.fields.caption : null),
          action: ok ? (opts.queue ? 'schedule' : ok.action) : null,
          scheduled_at: (ok && slotOf.get(ok.row)) ?? ok?.scheduledAt ?? null,
          target_count: ok?.targets.length ?? 0,
          media_count: ok?.media.length ?? 0,
          ...(warnings.length ? { warnings } : {}),
        };
      });
      const fileIssues = [
        ...v.problems
          .filter((p) => p.row === null)
          .map((p) => ({ field: p.field ?? '', message: bulkIssueForPeople(p.message) })),
        ...queueIssues,
      ];
      const validCount = fileIssues.length ? 0 : rows.filter((r) => r.ok).length;
      const batches = Array.from({ length: Math.ceil(validCount / LIMITS.bulkBatchSize) }, (_, index) => ({
        index,
        item_count: Math.min(LIMITS.bulkBatchSize, validCount - index * LIMITS.bulkBatchSize),
      }));
      plans.set(planId, { file, name, localMedia, queue: opts.queue === true });
      const plan: BulkPlan = {
        plan_id: planId,
        source_name: name,
        rows,
        valid_count: validCount,
        invalid_count: rows.length - rows.filter((r) => r.ok).length,
        batches,
        ...(fileIssues.length ? { file_issues: fileIssues } : {}),
        ...(before ? { imported_before: { created_at: before.createdAt } } : {}),
      };
      return plan;
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
