import { resolve } from 'node:path';
import { BulkUpdate } from '../../../src-shared/api/bulk';
import type { BulkUpdateResponse } from '../../../src-shared/api/bulk';
import type { ApiClient } from '../api/client';
import { ApiError, NetworkError, toFieldIssue } from '../api/errors';
import { isTimeZone, parseScheduledAt, parseTargets } from './fields';
import { chunk } from './plan';
import { readRows } from './rows';
import { openRow, type RowProblem } from './validate';

/** The columns of a bulk update file; docs/bulk.md describes each. */
export const UPDATE_COLUMNS = ['post_id', 'caption', 'scheduled_at', 'timezone', 'add_targets'] as const;

export interface UpdateOutcome {
  readonly row: number;
  readonly postId: string;
  /** `unknown`: the request was lost after it may have reached the service; check before repeating. */
  readonly status: 'updated' | 'failed' | 'unknown';
  readonly error: string | null;
  readonly code: string | null;
}

export interface UpdateReport {
  readonly file: string;
  readonly state: 'invalid' | 'dry-run' | 'done';
  readonly problems: readonly RowProblem[];
  readonly total: number;
  readonly updated: number;
  readonly failed: number;
  readonly unknown: number;
  readonly results: readonly UpdateOutcome[];
}

export interface UpdateOptions {
  readonly api: Pick<ApiClient, 'bulkUpdate'>;
  readonly defaultTimezone?: string | undefined;
  readonly now?: (() => Date) | undefined;
  readonly dryRun?: boolean | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Reschedules and edits posts from a CSV/JSON file through `PATCH /api/cli/posts/bulk`, 100 updates per request,
 * each applied on its own with its own result. Every row is validated first. The operation is not idempotent
 * (`add_targets` would add twice), so a lost answer is reported as unknown rather than retried.
 */
export async function updateFromFile(file: string, opts: UpdateOptions): Promise<UpdateReport> {
  const read = await readRows(resolve(file));
  const zone = opts.defaultTimezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const now = opts.now?.() ?? new Date();
  const problems: RowProblem[] = [];
  const updates: { row: number; update: BulkUpdate }[] = [];
  const columns = new Set(read.rows.flatMap((r) => Object.keys(r.fields)));
  for (const c of columns) {
    if (c !== '__invalid' && !(UPDATE_COLUMNS as readonly string[]).includes(c)) {
      problems.push({
        row: null,
        line: null,
        field: c,
        message: `unknown column "${c}"; the columns are ${UPDATE_COLUMNS.join(', ')}`,
      });
    }
  }
  for (const r of problems.length ? [] : read.rows) {
    const opened = openRow(r, problems);
    if (!opened) continue;
    const { fields: f, add } = opened;
    const before = problems.length;
    const zoneText = typeof f.timezone === 'string' && f.timezone.trim() ? f.timezone.trim() : undefined;
    if (zoneText && !isTimeZone(zoneText))
      add('timezone', `"${zoneText}" is not an IANA time zone (e.g. Europe/Paris)`);
    const when = parseScheduledAt(f.scheduled_at, zoneText && isTimeZone(zoneText) ? zoneText : zone);
    if (!when.ok) add('scheduled_at', when.message);
    else if (when.value && new Date(when.value) <= now) add('scheduled_at', `${when.value} is in the past`);
    const hasTargets =
      f.add_targets !== undefined &&
      f.add_targets !== '' &&
      !(Array.isArray(f.add_targets) && f.add_targets.length === 0);
    const targets = hasTargets ? parseTargets(f.add_targets) : null;
    if (targets && !targets.ok) add('add_targets', targets.message);
    const caption = f.caption === undefined || f.caption === '' ? undefined : f.caption;
    if (problems.length > before) continue;
    const candidate = {
      post_id: typeof f.post_id === 'string' ? f.post_id.trim() : f.post_id,
      ...(caption !== undefined ? { caption } : {}),
      ...(when.ok && when.value ? { scheduled_at: when.value } : {}),
      ...(targets?.ok ? { add_targets: targets.value } : {}),
    };
    const parsed = BulkUpdate.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        add(String(issue.path[0] ?? '') || null, toFieldIssue(issue).message);
      continue;
    }
    if (Object.keys(parsed.data).length === 1) {
      add(null, 'nothing to change: give caption, scheduled_at or add_targets');
      continue;
    }
    updates.push({ row: r.row, update: parsed.data });
  }
  const base = { file, problems, total: read.rows.length, updated: 0, failed: 0, unknown: 0, results: [] };
  if (problems.length) return { ...base, state: 'invalid' };
  if (opts.dryRun) return { ...base, state: 'dry-run' };

  return { ...base, ...(await sendAndCount(updates, opts)) };
}

/** Sends the updates (`sendUpdates`), then counts their outcomes: the `done` part of a report. */
export async function sendAndCount(
  updates: readonly { readonly row: number; readonly update: BulkUpdate }[],
  opts: Pick<UpdateOptions, 'api' | 'onProgress' | 'signal'>,
): Promise<Pick<UpdateReport, 'state' | 'results' | 'updated' | 'failed' | 'unknown'>> {
  const results = await sendUpdates(updates, opts);
  return {
    state: 'done',
    results,
    updated: results.filter((r) => r.status === 'updated').length,
    failed: results.filter((r) => r.status === 'failed').length,
    unknown: results.filter((r) => r.status === 'unknown').length,
  };
}

/**
 * Sends updates 100 per request, each applied on its own with its own result, in row order. The operation is not
 * idempotent (`add_targets` would add twice), so a lost answer is reported as `unknown`, never sent again here.
 */
export async function sendUpdates(
  updates: readonly { readonly row: number; readonly update: BulkUpdate }[],
  opts: Pick<UpdateOptions, 'api' | 'onProgress' | 'signal'>,
): Promise<UpdateOutcome[]> {
  const results: UpdateOutcome[] = [];
  for (const part of chunk(updates)) {
    let res: BulkUpdateResponse | null = null;
    let lost: string | null = null;
    try {
      res = await opts.api.bulkUpdate({ updates: part.map((p) => p.update) }, { signal: opts.signal });
    } catch (err) {
      if (err instanceof NetworkError) lost = err.message;
      else if (err instanceof ApiError && err.status >= 500) lost = err.message;
      else throw err;
    }
    part.forEach((p, i) => {
      const r = res?.results[i];
      if (!r) {
        results.push({
          row: p.row,
          postId: p.update.post_id,
          status: 'unknown',
          error: lost ?? 'no result',
          code: null,
        });
      } else {
        results.push({
          row: p.row,
          postId: p.update.post_id,
          status: r.ok ? 'updated' : 'failed',
          error: r.ok ? null : (r.error ?? 'refused'),
          code: r.code ?? null,
        });
      }
    });
    opts.onProgress?.(results.length, updates.length);
  }
  return results;
}
