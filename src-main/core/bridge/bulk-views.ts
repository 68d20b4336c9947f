import { basename } from 'node:path';
import { LIMITS } from '../../../src-shared/api/limits';
import type {
  BatchSummary,
  BulkPlan,
  BulkProgress,
  BulkRow,
  BulkSubmission,
} from '../../../src-shared/ipc/bulk';
import type { BulkEvent, ImportReport } from '../bulk/bulk';
import type { BatchRecord, BulkStore } from '../bulk/bulk-store';
import { chunk } from '../bulk/plan';
import type { ReimportPlan } from '../bulk/reimport';
import type { RawRow } from '../bulk/rows';
import { reasonInWords } from '../bulk/service-reason';
import type { UpdateOutcome } from '../bulk/update';
import type { RowProblem, Validation } from '../bulk/validate';
import { BridgeFault, forPeople } from './bridge-fault';

/** What the page sees of a bulk plan, its progress and its submission, built from the core's reports and records. */

type Issue = { field: string; message: string };

/**
 * A problem of an import as the app shows it: the core writes them for the command line too, so what only
 * suits it (where to look up an id there) is said the app's way here.
 */
function bulkIssueForPeople(message: string): string {
  const id = /^account id "(.*)" must be a uuid/.exec(message);
  if (id) return `"${id[1]}" is not an account's id; the Accounts screen shows the id of each account`;
  return forPeople(message);
}

const issueOf = (p: RowProblem): Issue => ({ field: p.field ?? '', message: bulkIssueForPeople(p.message) });
/** The problems of one row (`null`: of the file as a whole), as the app shows them. */
const issuesOf = (problems: readonly RowProblem[], row: number | null): Issue[] =>
  problems.filter((p) => p.row === row).map(issueOf);

function stateOf(b: BatchRecord): BatchSummary['state'] {
  if (b.state === 'pending') return 'pending';
  if (b.state === 'rejected') return 'failed';
  if ((b.failedCount ?? 0) === 0) return 'submitted';
  return (b.createdCount ?? 0) > 0 ? 'partial' : 'failed';
}

export function batchSummaryOf(records: BulkStore, b: BatchRecord): BatchSummary {
  const imp = records.getImport(b.importId);
  return {
    batch_id: b.batchId,
    created_at: imp?.createdAt ?? new Date().toISOString(),
    source_name: imp ? basename(imp.source) : null,
    total: records.items(b.batchId).length,
    created_count: b.createdCount ?? 0,
    failed_count: b.failedCount ?? 0,
    state: stateOf(b),
  };
}

/** The import's progress as the page shows it: batch by batch, from the core's events. */
export function progressReporter(
  progressId: string,
  onProgress: (p: BulkProgress) => void,
): (e: BulkEvent) => void {
  let batchCount = 0;
  let itemsTotal = 0;
  let itemsDone = 0;
  return (e) => {
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
  };
}

/** A sent import as the page shows it: its batches (those `only` picks) and each row's latest outcome. */
export function submissionOf(
  records: BulkStore,
  report: ImportReport,
  only?: (b: BatchRecord) => boolean,
): BulkSubmission {
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
  const all = report.importId ? records.batches(report.importId) : [];
  const views = all.filter(only ?? (() => true)).map((b) => batchSummaryOf(records, b));
  // Each row's real outcome, the latest batch's answer winning (a resubmission after a failure).
  const outcome = new Map<
    number,
    { row: number; status: 'created' | 'failed' | 'pending'; reason: string | null }
  >();
  for (const b of all) {
    for (const it of records.items(b.batchId)) {
      if (outcome.get(it.row)?.status === 'created') continue;
      const status = it.status === 'created' || it.status === 'failed' ? it.status : 'pending';
      outcome.set(it.row, {
        row: it.row,
        status,
        reason:
          status === 'failed' ? forPeople(reasonInWords(it.error ?? 'The service refused this row.')) : null,
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
}

/** A new import's plan as the page shows it: each row checked, at the slot the queue would give it, and its batches. */
export function newPlanOf(
  planId: string,
  name: string | null,
  raw: readonly RawRow[],
  v: Validation,
  o: {
    readonly queue: boolean;
    readonly slotOf: ReadonlyMap<number, string>;
    readonly queueIssues: readonly Issue[];
    readonly importedBefore: { readonly createdAt: string } | null;
  },
): BulkPlan {
  const valid = new Map(v.valid.map((r) => [r.row, r]));
  const rows: BulkRow[] = raw.map((r) => {
    const ok = valid.get(r.row);
    const issues = issuesOf(v.problems, r.row);
    const warnings = v.warnings
      .filter((p) => p.row === r.row)
      .map((p) => ({ field: p.field ?? '', message: p.message }));
    return {
      line: r.line ?? r.row + 1,
      row: r.row,
      item_key: ok ? `row-${r.row}` : null,
      ok: Boolean(ok) && issues.length === 0,
      issues,
      caption: ok?.caption ?? (typeof r.fields.caption === 'string' ? r.fields.caption : null),
      action: ok ? (o.queue ? 'schedule' : ok.action) : null,
      scheduled_at: (ok && o.slotOf.get(ok.row)) ?? ok?.scheduledAt ?? null,
      target_count: ok?.targets.length ?? 0,
      media_count: ok?.media.length ?? 0,
      ...(warnings.length ? { warnings } : {}),
    };
  });
  const fileIssues = [...issuesOf(v.problems, null), ...o.queueIssues];
  const validCount = fileIssues.length ? 0 : rows.filter((r) => r.ok).length;
  const batches = Array.from({ length: Math.ceil(validCount / LIMITS.bulkBatchSize) }, (_, index) => ({
    index,
    item_count: Math.min(LIMITS.bulkBatchSize, validCount - index * LIMITS.bulkBatchSize),
  }));
  return {
    plan_id: planId,
    source_name: name,
    rows,
    valid_count: validCount,
    invalid_count: rows.length - rows.filter((r) => r.ok).length,
    batches,
    ...(fileIssues.length ? { file_issues: fileIssues } : {}),
    ...(o.importedBefore ? { imported_before: { created_at: o.importedBefore.createdAt } } : {}),
  };
}

/**
 * A file with post_id as the page shows its plan: each row against its post, what changes; `sent` is what Submit
 * sends (nothing while any row is wrong: an export edited by hand is fixed and dropped again).
 */
export function updatePlanOf(
  planId: string,
  name: string | null,
  raw: readonly RawRow[],
  plan: ReimportPlan,
): { readonly view: BulkPlan; readonly sent: ReimportPlan['updates'] } {
  const byRow = new Map(plan.updates.map((u) => [u.row, u]));
  const same = new Set(plan.unchanged.map((u) => u.row));
  const fileIssues = issuesOf(plan.problems, null);
  const rows: BulkRow[] = raw.map((r) => {
    const u = byRow.get(r.row);
    const issues = issuesOf(plan.problems, r.row);
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
  const sent = plan.problems.length > 0 ? [] : plan.updates;
  return {
    sent,
    view: {
      plan_id: planId,
      source_name: name,
      rows,
      valid_count: sent.length,
      invalid_count: rows.filter((r) => !r.ok).length,
      batches: chunk(sent).map((part, index) => ({ index, item_count: part.length })),
      ...(fileIssues.length ? { file_issues: fileIssues } : {}),
      mode: 'update',
      unchanged_count: plan.unchanged.length,
    },
  };
}

/** The updates' outcomes as the page shows them: counts, and a sentence for each row not updated. */
export function updateSubmissionOf(results: readonly UpdateOutcome[], unchanged: number): BulkSubmission {
  const count = (s: string) => results.filter((r) => r.status === s).length;
  return {
    batches: [],
    created_count: 0,
    failed_count: count('failed'),
    updated_count: count('updated'),
    unchanged_count: unchanged,
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
