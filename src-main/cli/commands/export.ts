import { dirname, extname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { PLATFORMS } from '../../../src-shared/api/common';
import { DELIVERY_STATUSES } from '../../../src-shared/api/posts';
import { ValidationError } from '../../core/api/errors';
import { isTimeZone } from '../../core/bulk/fields';
import { toRunRecord } from '../../core/bridge/executor-port';
import { Journal, RUN_PHASES, type RunPhase } from '../../core/executor/journal';
import { ANALYTICS_EXPORT_COLUMNS, analyticsRecords } from '../../core/export/analytics-records';
import { writeExportFile } from '../../core/export/export-file';
import { indexPosts, localZone } from '../../core/export/export-sources';
import { POST_EXPORT_COLUMNS, postRecords } from '../../core/export/post-records';
import { RUN_EXPORT_COLUMNS, runRecord } from '../../core/export/run-records';
import {
  EXPORT_FORMATS,
  writeExport,
  type ExportFormat,
  type ExportRecord,
} from '../../core/export/write-export';
import { parseDateTime, positiveInt } from '../args';
import type { CliDeps } from '../context';
import { analyticsFilterOptions, analyticsQuery, type AnalyticsFlags } from './analytics-filters';
import { knownPosts } from '../known-posts';
import { isWritableDirSync, statPathSync } from '../../core/files';

interface CommonOpts {
  format?: ExportFormat;
  output?: string;
  timezone?: string;
}

const badArgument = (path: string, message: string) =>
  new ValidationError([{ path, message }], null, 'argument');

/** Why `-o` cannot be written in this folder, in words (no errno): null when it can. */
function folderProblem(dir: string): string | null {
  const st = statPathSync(dir);
  if (!st) return 'no such folder';
  if (!st.isDirectory()) return 'not a folder';
  return isWritableDirSync(dir) ? null : 'you are not allowed to write in this folder';
}

/** `--format`, else the extension of `-o`, else CSV. */
function formatOf(o: CommonOpts): ExportFormat {
  if (o.format) return o.format;
  return o.output && extname(o.output).toLowerCase() === '.json' ? 'json' : 'csv';
}

function zoneOf(o: CommonOpts): string {
  const zone = o.timezone ?? localZone();
  if (!isTimeZone(zone))
    throw badArgument('timezone', `"${zone}" is not an IANA time zone (e.g. Europe/Paris)`);
  return zone;
}

const common = (c: Command): Command =>
  c
    .addOption(new Option('--format <format>', 'csv (default) or json').choices(EXPORT_FORMATS))
    .option('-o, --output <file>', 'write to this file (private, 0600) instead of stdout')
    .option('--timezone <zone>', "zone of the local-time columns (default: this machine's)");

/**
 * Writes the records to `-o FILE` (complete or not at all) or to stdout as they come; a summary goes to stderr,
 * or with `--json` and `-o` to stdout, since the data went to the file.
 */
async function emit(
  deps: CliDeps,
  cmd: Command,
  o: CommonOpts,
  what: string,
  columns: readonly string[],
  records: (format: ExportFormat) => AsyncIterable<ExportRecord> | Iterable<ExportRecord>,
): Promise<void> {
  const out = deps.output(cmd);
  const format = formatOf(o);
  if (!o.output || o.output === '-') {
    await writeExport(records(format), { format, columns, out: deps.io.stdout, end: false });
    return;
  }
  const file = resolve(o.output);
  const problem = folderProblem(dirname(file));
  if (problem) throw badArgument('output', `${problem}: ${dirname(file)}`);
  const count = await writeExportFile(file, (stream) =>
    writeExport(records(format), { format, columns, out: stream }),
  );
  out.result({ file, format, records: count }, () => out.note(`exported ${count} ${what} to ${file}`));
}

export function registerExportCommand(program: Command, deps: CliDeps): void {
  const exp = program
    .command('export')
    .description('posts, analytics or run history as CSV (bulk import columns) or JSON, to stdout or a file');

  common(
    exp
      .command('posts')
      .description(
        'posts with their deliveries, statuses and times (UTC and local); an edited CSV re-imports as an update',
      )
      .addOption(new Option('--status <status>', 'only deliveries in this status').choices(DELIVERY_STATUSES))
      .addOption(new Option('--platform <platform>', 'only this platform').choices(PLATFORMS))
      .option(
        '--from <date>',
        'only deliveries scheduled (or published) from then: 2026-01-01, 2026-01-01 09:00 (in --timezone) or ISO 8601',
      )
      .option(
        '--to <date>',
        'only deliveries scheduled (or published) before then; a date alone includes that day',
      ),
  ).action(
    async (
      opts: CommonOpts & { status?: string; platform?: string; from?: string; to?: string },
      cmd: Command,
    ) => {
      const zone = zoneOf(opts);
      // Dates as people type them, in the zone of the export's local columns.
      const from =
        opts.from === undefined ? undefined : parseDateTime(opts.from, 'from', { zone, day: 'start' });
      const to = opts.to === undefined ? undefined : parseDateTime(opts.to, 'to', { zone, day: 'end' });
      const core = await deps.core(cmd);
      const known = await knownPosts(core, deps.log);
      if (known.stale) deps.output(cmd).note(`could not reach the service; exporting the posts seen before`);
      const pages = indexPosts(known.index, {
        scope: known.scope,
        status: opts.status,
        platform: opts.platform,
        from,
        to,
      });
      await emit(deps, cmd, opts, 'posts', POST_EXPORT_COLUMNS, (format) =>
        postRecords(pages, { zone, format }),
      );
    },
  );

  common(
    analyticsFilterOptions(
      exp
        .command('analytics')
        .description(
          'impressions, likes, comments and shares for the filters: totals, by platform, account, day, post',
        ),
      { post: false, zoneWords: 'in --timezone' },
    ),
  ).action(async (opts: CommonOpts & AnalyticsFlags, cmd: Command) => {
    const query = analyticsQuery(opts, zoneOf(opts));
    const core = await deps.core(cmd);
    const res = await core.client.analytics(query);
    await emit(deps, cmd, opts, 'rows', ANALYTICS_EXPORT_COLUMNS, () => analyticsRecords(res));
  });

  common(
    exp
      .command('runs')
      .description("the executor's run history on this machine, newest first")
      .option('--automation <id>', 'only this automation')
      .addOption(new Option('--state <state...>', 'only these states').choices(RUN_PHASES))
      .option('--limit <n>', 'at most this many (default 10000)', positiveInt('--limit', 100_000)),
  ).action(
    async (opts: CommonOpts & { automation?: string; state?: RunPhase[]; limit?: number }, cmd: Command) => {
      const zone = zoneOf(opts);
      const journal = new Journal(deps.local().store, null);
      const rows = journal.list({
        limit: opts.limit ?? 10_000,
        automationId: opts.automation,
        states: opts.state,
      });
      await emit(deps, cmd, opts, 'runs', RUN_EXPORT_COLUMNS, function* () {
        for (const r of rows) yield runRecord(toRunRecord(r), zone);
      });
    },
  );
}
