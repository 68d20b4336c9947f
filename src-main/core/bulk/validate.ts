import { BulkItem } from '../../../src-shared/api/bulk';
import { toFieldIssue } from '../api/errors';
import { checkFile, cliHint } from '../media/check';
import type { FileCheck } from '../media/check';
import type { Tools } from '../media/tools';
import { isTimeZone, parseAction, parseMedia, parseScheduledAt, parseTargets } from './fields';
import type { RawRow } from './rows';
import { EXPORT_ONLY_COLUMNS } from '../export/post-records';
import type { Account } from '../../../src-shared/api/accounts';

/** The columns (CSV) or keys (JSON) of an import file; docs/bulk.md describes each. */
export const IMPORT_COLUMNS = [
  'caption',
  'title',
  'media',
  'targets',
  'scheduled_at',
  'timezone',
  'action',
] as const;

/** The columns without which no row can be a post. */
export const REQUIRED_COLUMNS = ['caption', 'targets'] as const;

import type { PostRow, RowProblem } from './row-shapes';

export type { PostRow, RowProblem };

/** The bulk item key of a row: `row-N`, or the key a split gave it. */
export const itemKeyOf = (r: Pick<PostRow, 'row' | 'itemKey'>): string => r.itemKey ?? `row-${r.row}`;

export interface Validation {
  readonly total: number;
  readonly valid: readonly PostRow[];
  readonly problems: readonly RowProblem[];
  /** What may go wrong on a platform but need not (its own rule the service does not state): shown, not blocking. */
  readonly warnings: readonly RowProblem[];
  /** The check of every media file the rows name, by absolute path. */
  readonly files: ReadonlyMap<string, FileCheck>;
}

export interface ParseOptions {
  /** Relative media paths are read from here: the import file's folder. */
  readonly baseDir: string;
  /** Zone for local date-times in rows without a `timezone`. */
  readonly defaultTimezone: string;
  /**
   * Whether rows may name media files on this computer (default true: a file the user named themselves).
   * False for a CSV a page sent (pasted text, an upload): it must not make Postdesk read the user's files.
   */
  readonly localMedia?: boolean | undefined;
}

export interface ValidateOptions extends ParseOptions {
  readonly now?: Date | undefined;
  readonly tools?: Tools | undefined;
  /**
   * The connected accounts, so that a target naming another is a problem now rather than a failure after
   * Submit; null or absent when they could not be listed (offline): targets are then left to the service.
   */
  readonly accounts?: readonly Pick<Account, 'id' | 'platform'>[] | null | undefined;
}

/** Why a row of a CSV a page sent may not name a file. */
export const NO_LOCAL_MEDIA =
  'names a media file on your computer, and a file sent through a browser page may not open other files there, so it cannot be read. Import this file from the Postdesk desktop app or the command line, which may open the files it names, or name media that is already uploaded by its asset id';

// Stands in for the asset id a media file will get, so the contract schema can check everything else now.
const PLACEHOLDER_ASSET = '00000000-0000-4000-8000-000000000000';

const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : undefined;

export interface ParsedRows {
  readonly total: number;
  /** The rows every field of which parses: what the import would send, before the checks that depend on the moment
   *  (schedules in the past) or on the media files' contents. */
  readonly rows: readonly PostRow[];
  readonly problems: readonly RowProblem[];
}

/** Column names, then each row's fields and the contract's schema for a bulk item. Reads no file. */
/**
 * A row's fields and a reporter of its problems, or null when the reader could not make a row of it (that problem is
 * reported here): the start of every per-row check, for imports and updates alike.
 */
export function openRow(
  r: RawRow,
  problems: RowProblem[],
): { fields: RawRow['fields']; add: (field: string | null, message: string) => void } | null {
  const add = (field: string | null, message: string): void => {
    problems.push({ row: r.row, line: r.line, field, message });
  };
  if (typeof r.fields.__invalid === 'string') {
    add(null, r.fields.__invalid);
    return null;
  }
  return { fields: r.fields, add };
}

export function parseRows(rows: readonly RawRow[], opts: ParseOptions): ParsedRows {
  const problems: RowProblem[] = [];
  if (!isTimeZone(opts.defaultTimezone)) {
    problems.push({
      row: null,
      line: null,
      field: 'timezone',
      message: `default time zone "${opts.defaultTimezone}" is not an IANA zone`,
    });
  }
  // A file with no posts, or without the columns every post needs, is refused whole: importing it would record
  // an import of nothing.
  if (rows.length === 0) {
    problems.push({
      row: null,
      line: null,
      field: null,
      message:
        'the file has no posts: a CSV needs a header row and at least one row under it, a JSON file a non-empty list',
    });
  }
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.fields)) seen.add(k);
  const csv = rows[0]?.line !== null && rows[0]?.line !== undefined;
  for (const k of REQUIRED_COLUMNS) {
    if (csv && !seen.has(k)) {
      problems.push({
        row: null,
        line: 1,
        field: k,
        message: `the header has no "${k}" column; every post needs ${REQUIRED_COLUMNS.join(' and ')}`,
      });
    }
  }
  for (const k of seen) {
    // What an export adds beside the import's columns describes the posts it came from; an import ignores it.
    if (
      k !== '__invalid' &&
      !(IMPORT_COLUMNS as readonly string[]).includes(k) &&
      !EXPORT_ONLY_COLUMNS.includes(k)
    ) {
      problems.push({
        row: null,
        line: rows[0]?.line !== null ? 1 : null,
        field: k,
        message: `unknown column "${k}"; the columns are ${IMPORT_COLUMNS.join(', ')}`,
      });
    }
  }
  if (problems.length > 0) return { total: rows.length, rows: [], problems };

  const parsed: PostRow[] = [];
  for (const r of rows) {
    const opened = openRow(r, problems);
    if (!opened) continue;
    const { fields: f, add } = opened;
    const before = problems.length;
    const caption = f.caption;
    if (typeof caption !== 'string')
      add('caption', 'is required (it may be empty text, but the column must be there)');
    const title = f.title === undefined || f.title === '' ? undefined : str(f.title);
    if (f.title !== undefined && f.title !== '' && title === undefined) add('title', 'must be text');

    const targets = parseTargets(f.targets);
    if (!targets.ok) add('targets', targets.message);
    const media = parseMedia(f.media, opts.baseDir);
    if (!media.ok) add('media', media.message);
    else if (opts.localMedia === false && media.value.some((m) => m.kind === 'file'))
      add('media', NO_LOCAL_MEDIA);

    const zoneText = str(f.timezone)?.trim() || undefined;
    if (zoneText !== undefined && !isTimeZone(zoneText))
      add('timezone', `"${zoneText}" is not an IANA time zone (e.g. Europe/Paris)`);
    const zone = zoneText && isTimeZone(zoneText) ? zoneText : opts.defaultTimezone;
    const when = parseScheduledAt(f.scheduled_at, zone);
    if (!when.ok) add('scheduled_at', when.message);
    const action = parseAction(f.action, when.ok && when.value !== undefined);
    if (!action.ok) add('action', action.message);
    if (action.ok && action.value === 'schedule' && when.ok && when.value === undefined) {
      add(
        'scheduled_at',
        'is required to schedule (action schedule); leave action empty or write draft for a draft',
      );
    }
    if (problems.length > before || !targets.ok || !media.ok || !when.ok || !action.ok) continue;

    // Everything the contract itself says about a bulk item (caption length, media count, target count…).
    const candidate = BulkItem.safeParse({
      item_key: `row-${r.row}`,
      caption,
      ...(title !== undefined ? { title } : {}),
      ...(media.value.length
        ? {
            media: media.value.map((m) => ({ asset_id: m.kind === 'asset' ? m.assetId : PLACEHOLDER_ASSET })),
          }
        : {}),
      targets: targets.value,
      ...(action.value === 'draft' ? { action: 'draft' } : {}),
      ...(when.value ? { scheduled_at: when.value } : {}),
    });
    if (!candidate.success) {
      for (const issue of candidate.error.issues) {
        const fi = toFieldIssue(issue);
        add(String(issue.path[0] ?? '') || null, fi.message);
      }
      continue;
    }
    parsed.push({
      row: r.row,
      line: r.line,
      caption: caption as string,
      title,
      media: media.value,
      targets: targets.value,
      action: action.value,
      scheduledAt: when.value,
    });
  }
  return { total: rows.length, rows: parsed, problems };
}

/**
 * Validates every row before anything is sent: column names, each field, the contract's schema for a bulk item,
 * schedules in the future, and every media file against the upload limits. Problems name the row and field.
 */
export async function validateRows(rows: readonly RawRow[], opts: ValidateOptions): Promise<Validation> {
  const now = opts.now ?? new Date();
  const parsed = parseRows(rows, opts);
  const problems = [...parsed.problems];
  const drafts: PostRow[] = [];
  for (const d of parsed.rows) {
    if (d.action === 'schedule' && d.scheduledAt && new Date(d.scheduledAt) <= now) {
      problems.push({
        row: d.row,
        line: d.line,
        field: 'scheduled_at',
        message: `${d.scheduledAt} is in the past`,
      });
    } else {
      drafts.push(d);
    }
  }

  // Each media file is checked once, however many rows use it.
  const files = new Map<string, FileCheck>();
  for (const d of drafts) {
    for (const m of d.media) {
      if (m.kind === 'file' && !files.has(m.path))
        files.set(m.path, await checkFile(m.path, { tools: opts.tools }));
    }
  }
  const valid: PostRow[] = [];
  const warnings: RowProblem[] = [];
  // Loaded on first use: the rules count captions as X does (twitter-text), a fifth of a second to load, which a
  // host that never imports a file (the app opening, most commands) should not pay.
  const { checkRowRules } = await import('./row-rules');
  for (const d of drafts) {
    let fine = true;
    for (const m of d.media) {
      if (m.kind !== 'file') continue;
      const check = files.get(m.path);
      for (const p of check?.problems ?? []) {
        if (p.severity !== 'error') continue;
        fine = false;
        const hint = cliHint(p, m.given);
        problems.push({
          row: d.row,
          line: d.line,
          field: 'media',
          message: p.message.replaceAll(m.path, m.given),
          ...(hint ? { cliHint: hint } : {}),
        });
      }
    }
    // The accounts and the platforms' rules: what the app knows will fail is not "ok" at the dry run.
    const verdicts = checkRowRules(d, { accounts: opts.accounts ?? null, files });
    problems.push(...verdicts.problems);
    warnings.push(...verdicts.warnings);
    if (fine && verdicts.problems.length === 0) valid.push(d);
  }
  problems.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  return { total: rows.length, valid, problems, warnings, files };
}

/** `row 3 (line 4), targets: …` */
export function formatProblem(p: RowProblem): string {
  const where = p.row === null ? 'file' : `row ${p.row}${p.line !== null ? ` (line ${p.line})` : ''}`;
  return `${where}${p.field ? `, ${p.field}` : ''}: ${p.message}${p.cliHint ?? ''}`;
}
