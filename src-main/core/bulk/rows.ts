import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { errorText } from '../common/error-text';
import { unescapeFormula } from './formula-cells';
import { readBytes } from '../files';

/** One record of an import file, before validation. Values are strings (CSV) or JSON values. */
export interface RawRow {
  /** 1-based position among the data records, the number every report uses. */
  readonly row: number;
  /** The file line the record starts on (CSV only). */
  readonly line: number | null;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface FileProblem {
  readonly row: null;
  readonly line: number | null;
  readonly field: string | null;
  readonly message: string;
}

export class BulkFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'BulkFileError';
  }
}

export interface ReadRows {
  readonly format: 'csv' | 'json';
  readonly rows: readonly RawRow[];
  /** The file's bytes: the identity imports had before it was taken from the rows (see identity.ts). */
  readonly bytes: Buffer;
}

const normalizeKey = (k: string): string => k.trim().toLowerCase();

/** The parser's message with the line and column of the fault (V8 gives only a position in some versions). */
function jsonErrorAt(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/line \d+ column \d+/.test(message)) return message;
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message} (line ${line} column ${column})`;
}

function fromJson(file: string, text: string): RawRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new BulkFileError(file, `not valid JSON: ${jsonErrorAt(text, err)}`);
  }
  const list = Array.isArray(data) ? data : (data as { posts?: unknown } | null)?.posts;
  if (!Array.isArray(list))
    throw new BulkFileError(file, 'JSON must be an array of posts, or {"posts": [...]}');
  return list.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      return { row: i + 1, line: null, fields: { __invalid: 'each post must be a JSON object' } };
    }
    return {
      row: i + 1,
      line: null,
      fields: Object.fromEntries(
        Object.entries(item as Record<string, unknown>).map(([k, v]) => [normalizeKey(k), v]),
      ),
    };
  });
}

function fromCsv(file: string, text: string): RawRow[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(text, {
      bom: true,
      columns: (header: string[]) => header.map(normalizeKey),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
      info: true,
    }) as typeof records;
  } catch (err) {
    throw new BulkFileError(file, `not valid CSV (${errorText(err)})`);
  }
  // A line break inside a quoted field is the file's line ending, not the author's: a copy saved with CRLF holds
  // the same posts, so it must send the same captions. A cell an export guarded against spreadsheet formulas
  // (formula-cells.ts) is read back as the text it stood for.
  return records.map((r, i) => ({
    row: i + 1,
    line: r.info.lines,
    fields: Object.fromEntries(
      Object.entries(r.record).map(([k, v]) => [k, unescapeFormula(v.replace(/\r\n?/g, '\n'))]),
    ),
  }));
}

/** Reads a CSV (header row first) or JSON import file; the extension decides, `.json` or anything else as CSV. */
export async function readRows(file: string): Promise<ReadRows> {
  const bytes = await readBytes(file);
  const text = bytes.toString('utf8');
  const json = extname(file).toLowerCase() === '.json';
  const rows = json ? fromJson(file, text) : fromCsv(file, text);
  return { format: json ? 'json' : 'csv', rows, bytes };
}
