import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { Journal, RUN_PHASES, type JournalRun, type RunPhase } from '../../core/executor/journal';
import { pruneRuns, retentionOf } from '../../core/executor/prune';
import { readRunLog } from '../../core/executor/run-log';
import { executorDataDir } from '../../core/paths';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { truncate } from '../output';
import { commandGroup, defaultCommand } from '../command-group';

/** A journal row as `--json` prints it: no claim token, output and progress parsed. */
export function runRow(r: JournalRun): Record<string, unknown> {
  return {
    id: r.id,
    run_id: r.run_id,
    automation_id: r.automation_id,
    automation_name: r.automation_name,
    queue: r.queue,
    scheduled_for: r.scheduled_for,
    revision: r.revision,
    state: r.state,
    step: r.step,
    reason_code: r.reason_code,
    reason: r.reason,
    run_dir: r.run_dir,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    service: r.scope,
  };
}

const short = (id: string | null) => (id ? id.slice(0, 8) : '');

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerRunsCommand(program: Command, deps: CliDeps): void {
  const runs = commandGroup(
    program,
    'runs',
    "the executor's runs on this machine: steps, logs, and why a run failed or did not happen",
  );
  defaultCommand(runs, 'list', 'runs and occurrences that did not run, newest first')
    .option('--automation <id>', 'only this automation')
    .addOption(new Option('--state <state...>', 'only these states').choices(RUN_PHASES))
    .option('--limit <n>', 'at most this many', '50')
    .action((flags: { automation?: string; state?: RunPhase[]; limit: string }, self: Command) => {
      const out = deps.output(self);
      const journal = new Journal(deps.local().store, null);
      const limit = Math.max(1, Math.min(10_000, Number(flags.limit) || 50));
      const rows = journal.list({ limit, automationId: flags.automation, states: flags.state });
      out.result({ runs: rows.map(runRow) }, () => {
        if (rows.length === 0) {
          out.note('no runs yet (start the executor with `postdesk executor`)');
          return;
        }
        const c = out.colors;
        const paint = (s: RunPhase) =>
          s === 'completed'
            ? c.green(s)
            : s === 'failed'
              ? c.red(s)
              : s === 'not_run'
                ? c.yellow(s)
                : c.cyan(s);
        out.table(
          ['id', 'run', 'automation', 'scheduled for', 'state', 'step', 'reason'],
          rows.map((r) => [
            short(r.id),
            short(r.run_id),
            truncate(r.automation_name ?? r.automation_id, 24),
            r.scheduled_for ?? '',
            paint(r.state),
            r.step ?? '',
            r.reason ? truncate(r.reason, 70) : '',
          ]),
        );
      });
    });
  runs
    .command('show')
    .description('one run: its fields, every step, the reason it failed or did not happen, and its log')
    .argument('<id>', 'local id, service run id, or a unique prefix of either')
    .option('--log-lines <n>', 'how many lines of the log to show', '50')
    .action(async (id: string, flags: { logLines: string }, self: Command) => {
      const out = deps.output(self);
      const journal = new Journal(deps.local().store, null);
      const row = journal.find(id);
      if (!row) {
        out.result({ error: { kind: 'NotFound', message: `no run ${id}` } }, () =>
          out.note(`no run matches ${id}`),
        );
        deps.setExitCode(EXIT.badInput);
        return;
      }
      const steps = journal.steps(row.id);
      const log = row.run_dir
        ? await readRunLog(join(row.run_dir, 'run.log'), Number(flags.logLines) || 50)
        : [];
      out.result(
        {
          run: runRow(row),
          steps: steps.map((s) => ({
            at: s.at,
            step_id: s.step_id,
            status: s.status,
            message: s.message,
            source: s.source,
          })),
          log,
        },
        () => {
          out.fields([
            ['id', row.id],
            ['run id', row.run_id],
            ['automation', `${row.automation_name ?? ''} (${row.automation_id})`],
            ['queue', row.queue],
            ['revision', row.revision],
            ['scheduled for', row.scheduled_for],
            ['state', row.state],
            ['step', row.step],
            ['reason', row.reason ? `${row.reason_code}: ${row.reason}` : null],
            ['started', row.started_at],
            ['finished', row.finished_at],
            ['run dir', row.run_dir],
          ]);
          if (steps.length > 0) {
            out.line();
            out.table(
              ['at', 'step', 'status', 'message', 'from'],
              steps.map((s) => [
                s.at,
                s.step_id,
                s.status,
                s.message ? truncate(s.message, 80) : '',
                s.source,
              ]),
            );
          }
          if (log.length > 0) {
            out.line();
            out.line(out.colors.bold(`log (last ${log.length} lines)`));
            for (const l of log)
              out.line(`${out.colors.dim(l.at.slice(11, 23))} ${l.stream.padEnd(6)} ${l.text}`);
          }
        },
      );
    });
  runs
    .command('prune')
    .description(
      'remove run directories past their retention (settings runRetentionDays, failedRunRetentionDays, runRetentionCount)',
    )
    .option('--days <n>', 'keep finished runs this many days (default: the setting)')
    .option('--failed-days <n>', 'keep failed runs this many days (default: the setting)')
    .option('--keep <n>', 'keep at most this many run directories (default: the setting)')
    .option('--dry-run', 'say what would be removed, remove nothing')
    .action(
      async (
        flags: { days?: string; failedDays?: string; keep?: string; dryRun?: boolean },
        self: Command,
      ) => {
        const out = deps.output(self);
        const local = deps.local();
        const setting = retentionOf(local.settings.get());
        const num = (flag: string, v: string | undefined, fallback: number) => {
          if (v === undefined) return fallback;
          const n = Number(v);
          if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} must be a whole number, got "${v}"`);
          return n;
        };
        const policy = {
          days: num('--days', flags.days, setting.days),
          failedDays: num('--failed-days', flags.failedDays, setting.failedDays),
          maxCount: num('--keep', flags.keep, setting.maxCount),
        };
        const result = await pruneRuns({
          runsDir: join(executorDataDir(deps.dataDir), 'runs'),
          journal: new Journal(local.store, null),
          policy,
          now: new Date(),
          dryRun: flags.dryRun === true,
        });
        out.result(
          {
            dry_run: flags.dryRun === true,
            policy,
            removed: result.removed.map((r) => ({ id: r.localId, why: r.why, failed: r.failed })),
            kept: result.kept,
          },
          () =>
            out.note(
              `${flags.dryRun ? 'would remove' : 'removed'} ${result.removed.length} run director${result.removed.length === 1 ? 'y' : 'ies'}, kept ${result.kept}`,
            ),
        );
      },
    );
}
