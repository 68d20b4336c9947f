import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { isTimeZone } from '../../core/bulk/fields';
import { BulkInterruptedError, createBulk } from '../../core/bulk/bulk';
import type { BatchStatus, BulkEvent, ImportReport } from '../../core/bulk/bulk';
import type { ImportPlan } from '../../core/bulk/plan';
import { updateFromFile } from '../../core/bulk/update';
import type { UpdateReport } from '../../core/bulk/update';
import { formatProblem } from '../../core/bulk/validate';
import { reasonInWords } from '../../core/bulk/service-reason';
import { ValidationError } from '../../core/api/errors';
import { formatBytes } from '../../../src-shared/format-bytes';
import { BulkFileError, readRows } from '../../core/bulk/rows';
import { indexLookup, isReimport, reimportRows } from '../../core/bulk/reimport';
import { resolve } from 'node:path';
import { knownPosts, learningClient } from '../known-posts';
import { batchId as checkedBatchId, existingFile, positiveInt } from '../args';
import type { CliDeps } from '../context';
import { EXIT, NotFoundError, inUserWords } from '../exit-codes';
import { snakeCaseKeys } from '../json-case';
import type { Output } from '../output';
import { truncate } from '../output';
import { exitCodeForUpload, outcomeJson, recordScope, toolsFrom, uploadBars } from './upload';
import { noQueueSlots, queueServiceFor } from './queue';

function zoneOption(zone: string | undefined): string | undefined {
  if (zone !== undefined && !isTimeZone(zone)) {
    throw new ValidationError(
      [{ path: 'timezone', message: `"${zone}" is not an IANA time zone (e.g. Europe/Paris)` }],
      null,
      'argument',
    );
  }
  return zone;
}

/** Upload bars for the media, then one bar for the batches; on a TTY only. */
function bulkProgress(out: Output): { onEvent(e: BulkEvent): void; stop(): void } {
  const uploads = uploadBars(out);
  if (!out.io.stderr.isTTY || out.json) {
    return { onEvent: (e) => e.type === 'media' && uploads.onEvent(e.event), stop: () => uploads.stop() };
  }
  let bar: cliProgress.SingleBar | null = null;
  let done = 0;
  return {
    onEvent(e) {
      if (e.type === 'media') uploads.onEvent(e.event);
      else if (e.type === 'planned' || e.type === 'resuming') {
        uploads.stop();
        const total = e.type === 'planned' ? e.batches : e.pending;
        bar ??= new cliProgress.SingleBar(
          { stream: out.io.stderr, format: ' batches |{bar}| {value}/{total} {note}', hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, 0, { note: '' });
      } else if (e.type === 'batch-sent' || e.type === 'batch-rejected') {
        done += 1;
        bar?.update(done, {
          note: e.type === 'batch-sent' ? `(${e.created} created, ${e.failed} failed)` : 'rejected',
        });
      } else if (e.type === 'batch-retry') {
        bar?.update(done, { note: `retrying batch ${e.seq} (attempt ${e.attempt + 1})` });
      }
    },
    stop() {
      uploads.stop();
      bar?.stop();
    },
  };
}

function printProblems(out: Output, report: { problems: ImportReport['problems'] }): void {
  const c = out.colors;
  out.line(c.red(`${report.problems.length} problem(s); nothing was sent:`));
  for (const p of report.problems) out.line(`  ${formatProblem(p)}`);
}

function printPlan(out: Output, plan: ImportPlan): void {
  out.fields([
    ['rows', `${plan.validRows} valid of ${plan.totalRows}`],
    [
      'batches',
      plan.batches.map((b) => `#${b.seq}: ${b.items} (rows ${b.firstRow}-${b.lastRow})`).join(', ') || 'none',
    ],
    [
      'uploads',
      `${plan.uploads.filter((u) => !u.uploadedBefore).length} to upload, ${plan.uploads.filter((u) => u.uploadedBefore).length} uploaded before` +
        `${plan.duplicateFiles ? `, ${plan.duplicateFiles} duplicate reference(s) deduplicated` : ''}${plan.assetRefs ? `, ${plan.assetRefs} by asset id` : ''}`,
    ],
  ]);
  if (plan.uploads.length) {
    out.table(
      ['file(s)', 'size', 'rows', 'status'],
      plan.uploads.map((u) => [
        u.files.join(', '),
        formatBytes(u.bytes),
        u.rows.length,
        u.uploadedBefore ? 'uploaded before' : 'to upload',
      ]),
    );
  }
  if (plan.schedule.length) {
    out.table(
      ['target', 'drafts', 'scheduled', 'first', 'last'],
      plan.schedule.map((s) => [
        s.target,
        s.drafts,
        s.scheduled.length,
        s.scheduled[0]?.at ?? '',
        s.scheduled.at(-1)?.at ?? '',
      ]),
    );
  }
}

/** What a platform may refuse but need not: on stderr, beside the plan, never holding anything back. */
function printWarnings(out: Output, r: Pick<ImportReport, 'warnings'>): void {
  for (const w of r.warnings) out.warn(`${out.colors.yellow('warning:')} ${formatProblem(w)}`);
}

function printImport(out: Output, r: ImportReport): void {
  const c = out.colors;
  printWarnings(out, r);
  if (r.state === 'invalid') return printProblems(out, r);
  if (r.plan) printPlan(out, r.plan);
  if (r.state === 'dry-run') {
    if (r.importedBefore)
      out.note(
        `imported before: these posts were imported on ${new Date(r.importedBefore.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}; without --dry-run this reports that import and sends nothing again (--again imports them once more)`,
      );
    if (r.problems.length) printProblems(out, r);
    out.line(c.dim('dry run: nothing was uploaded or sent'));
    return;
  }
  if (r.state === 'upload-failed') {
    out.line(c.red('a media upload failed; no post was sent:'));
    for (const u of r.uploads) if (!u.ok) out.line(`  ${inUserWords(u.error.message)}`);
    return;
  }
  if (r.problems.length) {
    // `--skip-invalid`: the rows left out, each with why, so none is lost without a word.
    out.line(c.yellow(`skipped ${r.problems.length} invalid row(s); the others were sent:`));
    for (const p of r.problems) out.line(`  ${formatProblem(p)}`);
  }
  if (r.resumed)
    out.note(
      `import ${r.importId} was started before: its saved batches were resumed, nothing was created twice`,
    );
  out.table(
    ['batch', '#', 'items', 'created', 'failed', 'state'],
    r.batches.map((b) => [
      b.batchId,
      b.seq,
      b.items,
      b.created ?? '',
      b.failed ?? '',
      b.state === 'rejected' ? c.red(`rejected: ${inUserWords(b.error ?? '')}`) : b.state,
    ]),
  );
  out.line(
    `${c.green(`${r.created} created`)}${r.failed ? `, ${c.red(`${r.failed} failed`)}` : ''} (import ${r.importId})`,
  );
  if (r.failedRows.length) {
    for (const f of r.failedRows)
      out.line(`  row ${f.row}: ${f.error ? inUserWords(reasonInWords(f.error)) : 'failed'}`);
    const batches = [...new Set(r.failedRows.map((f) => f.batchId))];
    out.line(
      `resubmit only the failed rows with: ${batches.map((b) => `postdesk bulk resubmit ${b}`).join('; ')}`,
    );
  }
}

const importJson = (r: ImportReport) =>
  snakeCaseKeys({
    ...r,
    uploads: r.uploads.map(outcomeJson),
    plan: r.plan,
  });

/** A file that cannot be read as CSV or JSON is bad input (exit 2), with what the parser said and where. */
async function readingFile<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BulkFileError) {
      throw new ValidationError([{ path: 'file', message: err.message }], null, 'argument');
    }
    throw err;
  }
}

function importExitCode(r: ImportReport): number {
  if (r.state === 'invalid') return EXIT.badInput;
  if (r.state === 'upload-failed') {
    const first = r.uploads.find((u) => !u.ok);
    return first && !first.ok ? exitCodeForUpload(first.error.kind) : EXIT.other;
  }
  if (r.state === 'rejected' || r.failed > 0) return EXIT.service;
  return EXIT.ok;
}

function printStatus(out: Output, s: BatchStatus): void {
  const c = out.colors;
  out.fields([
    ['batch', s.batchId],
    ['import', s.importId ?? 'not from this machine'],
    ['items', `${s.total}: ${s.created} created, ${s.failed} failed`],
  ]);
  const failed = s.items.filter((i) => i.status === 'failed');
  if (failed.length) {
    out.table(
      ['row', 'item', 'error'],
      failed.map((i) => [i.row ?? '', i.item_key, c.red(truncate(reasonInWords(i.error ?? ''), 80))]),
    );
    if (s.importId) out.line(`resubmit them with: postdesk bulk resubmit ${s.batchId}`);
  }
}

function printUpdate(out: Output, r: UpdateReport): void {
  const c = out.colors;
  if (r.state === 'invalid') return printProblems(out, r);
  if (r.state === 'dry-run') {
    out.line(`${r.total} update(s) are valid; dry run: nothing was sent`);
    return;
  }
  out.table(
    ['row', 'post', 'result'],
    r.results.map((u) => [
      u.row,
      u.postId,
      u.status === 'updated'
        ? c.green('updated')
        : u.status === 'failed'
          ? c.red(`failed: ${inUserWords(u.error ?? '')}`)
          : c.yellow(`unknown: ${inUserWords(u.error ?? '')}`),
    ]),
  );
  out.line(
    `${r.updated} updated, ${r.failed} failed${r.unknown ? `, ${r.unknown} unknown (the answer was lost; check before repeating)` : ''}`,
  );
}

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerBulkCommand(program: Command, deps: CliDeps): void {
  const bulk = program
    .command('bulk')
    .description('queue posts by the hundred from CSV or JSON: import, status, resubmit, update');

  const withBulk = async (cmd: Command, zone: string | undefined, concurrency = 2) => {
    const out = deps.output(cmd);
    const core = await deps.core(cmd);
    const progress = bulkProgress(out);
    const b = createBulk({
      // What the batches create is learned by the local index: `posts show` and `export posts` find all of it.
      api: learningClient(core, deps.log),
      store: core.store,
      scope: recordScope(core),
      defaultTimezone: zone,
      concurrency,
      onEvent: progress.onEvent,
      tools: toolsFrom({}, () => core.settings.get()),
    });
    /** The work the bars show: they stop when it ends, however it ends. */
    const sending = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } finally {
        progress.stop();
      }
    };
    return { out, core, b, progress, sending };
  };

  const finishImport = (out: Output, r: ImportReport): void => {
    out.result(importJson(r), () => printImport(out, r));
    deps.setExitCode(importExitCode(r));
  };

  const reimport = async (
    cmd: Command,
    file: string,
    rows: Awaited<ReturnType<typeof readRows>>['rows'],
    opts: { dryRun?: boolean; timezone?: string },
  ): Promise<void> => {
    const out = deps.output(cmd);
    const core = await deps.core(cmd);
    const known = await out.spin('reading the posts', () => knownPosts(core, deps.log));
    if (known.stale) out.note('could not reach the service; comparing with the posts seen before');
    const report = await out.spin('updating', () =>
      reimportRows(file, rows, {
        lookup: indexLookup(known.index, known.scope),
        api: known.client,
        defaultTimezone: zoneOption(opts.timezone) ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        dryRun: opts.dryRun,
      }),
    );
    out.result(snakeCaseKeys(report), () => {
      printUpdate(out, report);
      if (report.state !== 'invalid') {
        for (const c of report.changes)
          out.line(`row ${c.row}: post ${c.postId} changes ${c.changed.join(', ')}`);
        out.line(`${report.unchanged} row(s) unchanged: nothing sent for them`);
      }
    });
    if (report.state === 'invalid') deps.setExitCode(EXIT.badInput);
    else if (report.failed) deps.setExitCode(EXIT.service);
    else if (report.unknown) deps.setExitCode(EXIT.network);
  };

  bulk
    .command('import')
    .argument('<file>', 'a CSV (header row) or JSON file of posts; docs/bulk.md lists the columns')
    .description(
      'validate every row, upload the media once per content, and send the posts in idempotent batches of 100',
    )
    .option('--dry-run', 'validate and show the plan (batches, uploads, schedule per target); send nothing')
    .option(
      '--timezone <zone>',
      "zone for local date-times without a timezone column (default: this machine's)",
    )
    .option('--skip-invalid', 'send the valid rows even if some rows are invalid')
    .option('--again', 'import a file that was imported before once more (new posts)')
    .option('--concurrency <n>', 'batches in flight at once', positiveInt('--concurrency', 8), 2)
    .option(
      '--queue',
      "fill each target's next free queue slots instead of reading scheduled_at, timezone and action",
    )
    .action(
      async (
        file: string,
        opts: {
          dryRun?: boolean;
          timezone?: string;
          skipInvalid?: boolean;
          again?: boolean;
          concurrency: number;
          queue?: boolean;
        },
        cmd: Command,
      ) => {
        existingFile(file, 'file');
        const read = await readingFile(() => readRows(resolve(file)));
        // A file with post_id (an edited export) updates those posts: only what changed is sent.
        if (isReimport(read.rows)) return reimport(cmd, file, read.rows, opts);
        const { out, core, b, sending } = await withBulk(cmd, zoneOption(opts.timezone), opts.concurrency);
        const slots = opts.queue ? queueServiceFor(core) : null;
        let report: ImportReport;
        try {
          report = await sending(() =>
            readingFile(() =>
              b.importFile(file, {
                dryRun: opts.dryRun,
                again: opts.again,
                skipInvalid: opts.skipInvalid,
                ...(slots ? { queue: (rows) => slots.plan(rows) } : {}),
              }),
            ),
          );
        } catch (err) {
          noQueueSlots(err);
          if (!(err instanceof BulkInterruptedError)) throw err;
          // Not a failure of the data: the same command picks up where this one stopped.
          out.result(snakeCaseKeys({ error: { kind: err.name, ...err.toJSON() } }), () =>
            out.warn(`${out.colors.yellow('paused:')} ${inUserWords(err.message)}`),
          );
          deps.setExitCode(EXIT.network);
          return;
        }
        finishImport(out, report);
      },
    );

  bulk
    .command('resume')
    .description('send every batch a crash or a lost connection left unconfirmed')
    .action(async (_opts: unknown, cmd: Command) => {
      const { out, b, sending } = await withBulk(cmd, undefined);
      const reports = await sending(() => b.resumeImports());
      out.result({ imports: reports.map(importJson) }, () => {
        if (!reports.length) out.line('nothing to resume');
        for (const r of reports) printImport(out, r);
      });
      deps.setExitCode(Math.max(EXIT.ok, ...reports.map(importExitCode)));
    });

  /** A command on one batch by its id: the id checked before anything is opened. */
  const batchCommand = (
    name: string,
    argument: string,
    description: string,
    run: (batchId: string, bulk: Awaited<ReturnType<typeof withBulk>>) => Promise<void>,
  ): void => {
    bulk
      .command(name)
      .argument('<batch_id>', argument)
      .description(description)
      .action(async (given: string, _opts: unknown, cmd: Command) => {
        const batchId = checkedBatchId(given);
        await run(batchId, await withBulk(cmd, undefined));
      });
  };

  batchCommand(
    'status',
    'a batch id from `bulk import`',
    "a batch's results, read back from the service page by page",
    async (batchId, { out, b, progress }) => {
      progress.stop();
      const s = await out.spin('reading results', () => b.batchStatus(batchId));
      // The service lists no 404 for an unknown batch: it answers an empty one, which no sent batch ever is.
      if (s.total === 0) {
        throw new NotFoundError(
          `batch ${batchId} not found: the service has no items in it${s.importId ? ` (import ${s.importId} recorded it here, but it never reached the service; \`postdesk bulk resume\` sends it)` : ''}`,
        );
      }
      out.result(snakeCaseKeys(s), () => printStatus(out, s));
    },
  );

  batchCommand(
    'resubmit',
    'a batch sent from this machine',
    'send only the failed items of a batch again, as a new batch',
    async (batchId, { out, b, sending }) => finishImport(out, await sending(() => b.resubmitFailed(batchId))),
  );

  bulk
    .command('update')
    .argument(
      '<file>',
      'a CSV or JSON file with post_id and what to change (caption, scheduled_at, add_targets)',
    )
    .description('reschedule and edit posts in bulk; each update gets its own result')
    .option('--dry-run', 'validate only')
    .option('--timezone <zone>', 'zone for local date-times without a timezone column')
    .action(async (file: string, opts: { dryRun?: boolean; timezone?: string }, cmd: Command) => {
      const out = deps.output(cmd);
      existingFile(file, 'file');
      const zone = zoneOption(opts.timezone);
      const core = opts.dryRun ? null : await deps.core(cmd);
      const report = await out.spin('updating', () =>
        readingFile(() =>
          updateFromFile(file, {
            api: core?.client ?? {
              bulkUpdate: () => Promise.reject(new Error('dry run')),
            },
            defaultTimezone: zone,
            dryRun: opts.dryRun,
          }),
        ),
      );
      out.result(snakeCaseKeys(report), () => printUpdate(out, report));
      if (report.state === 'invalid') deps.setExitCode(EXIT.badInput);
      else if (report.failed) deps.setExitCode(EXIT.service);
      else if (report.unknown) deps.setExitCode(EXIT.network);
    });
}
