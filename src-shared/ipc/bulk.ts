import { z } from 'zod';
import { DateTime } from '../api/common';
import { BulkInspectQuery, BulkResult } from '../api/bulk';
import { event, invoke } from './define';
import { GrantId, LocalId, NoInput } from './common';

/**
 * The CSV: a grant of a file the user chose, or its text. Only a file chosen on this computer (main's
 * dialog, a drop in the desktop app) may name media files by path; an uploaded or pasted one may not.
 */
export const BulkSource = z.union([
  z.object({
    text: z
      .string()
      .min(1)
      .max(10 * 1024 * 1024),
    name: z.string().max(300).optional(),
  }),
  z.object({ grant: GrantId }),
]);
export type BulkSource = z.infer<typeof BulkSource>;

/** Whether a file's name says it is an import file: a CSV (header row first) or a JSON list of posts. */
export const isImportFileName = (name: string): boolean => /\.(csv|json)$/i.test(name.trim());

/** Why a file that is not an import file is refused, in the words every face shows. */
export const notAnImportFile = (name: string): string =>
  `${name} is not a CSV or JSON file. Bulk import reads a CSV whose first row names the columns (caption, targets, scheduled_at…), or a JSON list of posts.`;

export const BulkRowIssue = z.object({ field: z.string(), message: z.string() });

/** One CSV data row after validation. `line` is the 1-based line in the file. */
export const BulkRow = z.object({
  line: z.number().int().min(1),
  /** The 1-based position among the data rows (the header is not one): "row 3" in every report and result. */
  row: z.number().int().min(1).optional(),
  item_key: z.string().nullable(),
  ok: z.boolean(),
  issues: z.array(BulkRowIssue),
  /** What a platform may refuse but need not (its own rule, which the service does not state): the row is sent. */
  warnings: z.array(BulkRowIssue).optional(),
  caption: z.string().nullable(),
  action: z.enum(['draft', 'schedule']).nullable(),
  scheduled_at: DateTime.nullable(),
  target_count: z.number().int().nonnegative(),
  media_count: z.number().int().nonnegative(),
  /** An update (a file with post_id): the post it changes. */
  post_id: z.string().optional(),
  /** An update: the fields that differ from the post, and only they are sent; empty: unchanged, nothing sent. */
  changes: z.array(z.enum(['caption', 'scheduled_at', 'add_targets'])).optional(),
});
export type BulkRow = z.infer<typeof BulkRow>;

/** The dry run: rows with their issues and how valid rows split into batches of at most 100. */
export const BulkPlan = z.object({
  plan_id: LocalId,
  source_name: z.string().nullable(),
  rows: z.array(BulkRow),
  valid_count: z.number().int().nonnegative(),
  invalid_count: z.number().int().nonnegative(),
  batches: z.array(z.object({ index: z.number().int().nonnegative(), item_count: z.number().int() })),
  /** Problems with the file as a whole (a missing or unknown column); none of its rows is sent while any remain. */
  file_issues: z.array(BulkRowIssue).optional(),
  /**
   * `update`: the file has a post_id column (an edited export), so its rows update those posts with what changed,
   * and create nothing; `valid_count` then counts the posts to update. Default `create`.
   */
  mode: z.enum(['create', 'update']).optional(),
  /** An update: rows equal to their post, for which nothing is sent. */
  unchanged_count: z.number().int().nonnegative().optional(),
  /** The same posts were imported before, at this time: Submit reports that import and sends nothing again. */
  imported_before: z.object({ created_at: DateTime }).optional(),
});
export type BulkPlan = z.infer<typeof BulkPlan>;

export const BatchSummary = z.object({
  batch_id: z.string(),
  created_at: DateTime,
  source_name: z.string().nullable(),
  total: z.number().int(),
  created_count: z.number().int(),
  failed_count: z.number().int(),
  /** `pending`: not yet accepted by the service (the outbox retries it). */
  state: z.enum(['pending', 'submitted', 'partial', 'failed']),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const BulkSubmission = z.object({
  batches: z.array(BatchSummary),
  created_count: z.number().int(),
  failed_count: z.number().int(),
  /** The same file was imported before: its batches were reported (or finished), nothing was created twice. */
  already_imported: z.boolean().optional(),
  /** An update (a file with post_id): posts changed, and rows left as they were. */
  updated_count: z.number().int().optional(),
  unchanged_count: z.number().int().optional(),
  /** An update whose answer was lost: it may or may not have been applied (it is not sent again on its own). */
  unknown_count: z.number().int().optional(),
  /** An update: the rows the service refused, with its reason. */
  failures: z.array(z.object({ row: z.number().int(), message: z.string() })).optional(),
  /** An import: each row's real outcome as the service answered it; the reason in words, naming the column. */
  rows: z
    .array(
      z.object({
        row: z.number().int(),
        status: z.enum(['created', 'failed', 'pending']),
        reason: z.string().nullable(),
      }),
    )
    .optional(),
});
export type BulkSubmission = z.infer<typeof BulkSubmission>;

export const BulkProgress = z.object({
  /** The plan being submitted, or the batch being resubmitted. */
  plan_id: z.string(),
  batch_index: z.number().int().nonnegative(),
  batch_count: z.number().int().nonnegative(),
  items_done: z.number().int().nonnegative(),
  items_total: z.number().int().nonnegative(),
});
export type BulkProgress = z.infer<typeof BulkProgress>;

export const bulk = {
  /** Parse, validate and dry-run: nothing is sent. Only valid rows are submitted later. */
  plan: invoke(
    // `queue`: each row goes to its targets' next free queue slots; its time, zone and action are not read.
    z.object({ source: BulkSource, queue: z.boolean().optional() }),
    BulkPlan,
  ),
  submit: invoke(z.object({ plan_id: LocalId }), BulkSubmission),
  history: invoke(NoInput, z.object({ batches: z.array(BatchSummary) })),
  /** Per-item results of one batch, as the service reports them. */
  inspect: invoke(BulkInspectQuery, BulkResult),
  /** Resubmits the failed items of a batch as a new batch. */
  resubmitFailed: invoke(z.object({ batch_id: z.string().min(1) }), BulkSubmission),
  didProgress: event(BulkProgress),
} as const;
