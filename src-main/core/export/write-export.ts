import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { escapeFormula } from '../bulk/formula-cells';
import type { ExportFormat } from '../../../src-shared/ipc/exports';

export { EXPORT_FORMATS, type ExportFormat } from '../../../src-shared/ipc/exports';

/** One exported record: a CSV row (flat values) or a JSON object (which may nest). */
export type ExportRecord = Readonly<Record<string, unknown>>;

export interface WriteExportOptions {
  readonly format: ExportFormat;
  /** The CSV header, in order; JSON writes each record as it is. */
  readonly columns: readonly string[];
  readonly out: NodeJS.WritableStream;
  /** End `out` when done (default true); false for a stream that is not the export's own (stdout). */
  readonly end?: boolean;
  readonly signal?: AbortSignal;
  /** Called after each record is handed on, with the count so far. */
  readonly onRecord?: (count: number) => void;
}

/** A CSV cell: text guarded against spreadsheet formulas, numbers as they are, nothing as empty. */
function cell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return escapeFormula(typeof value === 'string' ? value : JSON.stringify(value));
}

async function* jsonArray(records: AsyncIterable<ExportRecord>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const r of records) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(r)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * Streams records to `out` as CSV (csv-stringify: a header, every text quoted so the import's trimming keeps its
 * spaces, a BOM so spreadsheets read UTF-8) or as a JSON array, one record at a time: the stream's backpressure
 * paces the source, so memory stays flat however many records there are. Answers how many were written.
 */
export async function writeExport(
  records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>,
  o: WriteExportOptions,
): Promise<number> {
  let count = 0;
  async function* counted(): AsyncGenerator<ExportRecord> {
    for await (const r of records) {
      yield r;
      count += 1;
      o.onRecord?.(count);
    }
  }
  const options = { end: o.end ?? true, ...(o.signal ? { signal: o.signal } : {}) };
  if (o.format === 'json') {
    await pipeline(Readable.from(jsonArray(counted())), o.out, options);
    return count;
  }
  const csv = stringify({
    header: true,
    columns: [...o.columns],
    bom: true,
    quoted_string: true,
    record_delimiter: 'unix',
  });
  const cells = async function* (source: AsyncIterable<ExportRecord>) {
    for await (const r of source) yield o.columns.map((c) => cell(r[c]));
  };
  await pipeline(Readable.from(counted()), cells, csv, o.out, options);
  return count;
}
