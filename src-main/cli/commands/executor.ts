import { Option, type Command } from 'commander';
import { errorText } from '../../core/common/error-text';
import type { Logger } from '../../core/common/logger';
import { createPolledClock, type Clock } from '../../core/executor/clock';
import { folderAgentMain } from '../../core/executor/agents/folder-agent-main';
import type { Executor } from '../../core/executor/executor';
import { daemonStateFile, drainRequestFile, keepDaemonState } from '../../core/executor/daemon-state';
import { createExecutorFromCore } from '../../core/executor/from-core';
import type { JournalRun } from '../../core/executor/journal';
import { attachMetrics, metricsOf } from '../../core/executor/metrics';
import { serveMetrics } from '../../core/executor/metrics-server';
import { executorDataDir } from '../../core/paths';
import { MISSED_RUN_POLICIES, type MissedRunPolicy } from '../../../src-shared/settings';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { snakeCaseKeys } from '../json-case';
import { truncate, type Output } from '../output';
import { registerExecutorDrainCommand } from './executor-drain';
import { registerExecutorServiceCommand } from './executor-service';
import { registerExecutorStatusCommand } from './executor-status';
import { runRow } from './runs';

interface ExecutorFlags {
  once?: boolean;
  name?: string;
  agentType?: string;
  folder?: string;
  concurrency?: string;
  syncInterval?: string;
  missed?: MissedRunPolicy;
  grace?: string;
  timeout?: string;
  stopGrace?: string;
  sandboxClock?: boolean;
  metricsPort?: string;
  metricsHost?: string;
}

const positive = (flag: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a number of at least 0, got "${v}"`);
  return n;
};

/** Reads the sandbox's virtual clock, so a daemon follows a test (or a demo) that moves it. */
async function sandboxClock(baseUrl: string, log: Logger): Promise<Clock & { stop(): void }> {
  const clock = createPolledClock(
    async () => {
      const res = await fetch(`${baseUrl}/_sandbox/clock`);
      if (!res.ok) throw new Error(`GET /_sandbox/clock answered ${res.status}`);
      return new Date(((await res.json()) as { now: string }).now);
    },
    // Every 100 to 300 ms: at 50 ms, 20 executors of one fleet polled the sandbox 400 times a second, which
    // on a loaded machine starved its real work (the runs' own requests) behind the clock reads.
    200,
    log,
  );
  await clock.start();
  return clock;
}

function watch(executor: Executor, out: Output): void {
  const time = () => new Date().toISOString().slice(11, 19);
  const c = out.colors;
  let registering = false;
  executor.onDidChangeState((s) => {
    if (s.state === 'registering' && !registering)
      out.line(`${time()} ${c.yellow('registering')} with the service; trying again until it answers`);
    registering = s.state === 'registering';
  });
  executor.onDidStartRun((r) => out.line(`${time()} ${c.cyan('start')}   ${r.name} (${r.id})`));
  executor.onDidFinishRun((r) => out.line(`${time()} ${c.green('done')}    ${r.name} (${r.id})`));
  executor.onDidFailRun((r) =>
    out.line(`${time()} ${c.red('failed')}  ${r.name} (${r.id}): ${truncate(r.message, 200)}`),
  );
  executor.onDidMissRun((r) =>
    out.line(
      `${time()} ${c.yellow('not run')} ${r.name} at ${r.scheduledFor ?? '-'}: ${truncate(r.message, 200)}`,
    ),
  );
}

// eslint-disable-next-line max-lines-per-function -- one commander declaration per subcommand, read top to bottom as its --help is; each action is a short call into core
export function registerExecutorCommand(program: Command, deps: CliDeps): void {
  const cmd = program
    .command('executor')
    .description(
      'run local automations: sync, start each occurrence once, run the agent, publish (SIGTERM stops gracefully)',
    )
    .option('--once', 'one sync-and-run pass, wait for its runs, then exit')
    .option('--name <name>', 'executor name shown in the dashboard (setting executorName)')
    .option(
      '--agent-type <type>',
      'which configured agent to run (setting agentCommands); default the only one, else "folder"',
    )
    .option(
      '--folder <dir>',
      'for the built-in folder agent: the folder of automations without one of their own (setting automationFolders)',
    )
    .option('--concurrency <n>', 'runs at once (setting concurrency)')
    .option('--sync-interval <seconds>', 'seconds between syncs', '60')
    .addOption(
      new Option('--missed <policy>', 'missed occurrences: run the latest, skip, or run all').choices(
        MISSED_RUN_POLICIES,
      ),
    )
    .option(
      '--grace <minutes>',
      'how late the latest missed occurrence may still run (setting graceWindowMinutes)',
    )
    .option('--timeout <minutes>', 'per-run timeout of the agent', '30')
    .option(
      '--stop-grace <seconds>',
      'on SIGTERM, how long running runs may finish before they are failed',
      '30',
    )
    .option(
      '--sandbox-clock',
      "follow the sandbox's virtual clock (GET /_sandbox/clock) instead of real time",
    )
    .option(
      '--metrics-port <port>',
      'serve Prometheus metrics (/metrics), a health check (/healthz) and drain (POST /drain, from this machine only) on 127.0.0.1 at this port (0: any free one)',
    )
    .option(
      '--metrics-host <address>',
      'listen on this address instead of 127.0.0.1, e.g. 0.0.0.0 in a container, where probes and Prometheus come from outside',
    )
    .action(async (flags: ExecutorFlags, self: Command) => {
      const out = deps.output(self);
      const core = await deps.core(self, { replay: false });
      const concurrency = positive('--concurrency', flags.concurrency);
      const grace = positive('--grace', flags.grace);
      const clock = flags.sandboxClock ? await sandboxClock(core.endpoint.baseUrl, deps.log) : undefined;
      if (clock) deps.onClose(() => clock.stop());
      const executor = await createExecutorFromCore(core, {
        agentType: flags.agentType,
        name: flags.name,
        folder: flags.folder,
        clock,
        env: deps.io.env,
        overrides: {
          syncIntervalMs: (positive('--sync-interval', flags.syncInterval) ?? 60) * 1000,
          runTimeoutMs: (positive('--timeout', flags.timeout) ?? 30) * 60_000,
          ...(concurrency !== undefined ? { concurrency: Math.max(1, Math.floor(concurrency)) } : {}),
          ...(flags.missed ? { missedRunPolicy: flags.missed } : {}),
          ...(grace !== undefined ? { graceMs: grace * 60_000 } : {}),
          // Human mode prints what the executor did and why as notes; --json leaves it to --verbose.
          logger: {
            debug: (m, f) => deps.log.debug(m, f),
            info: (m, f) => (out.json ? deps.log.info(m, f) : out.note(m)),
            warn: (m, f) => (out.json ? deps.log.warn(m, f) : out.note(m)),
            error: (m, f) => (out.json ? deps.log.error(m, f) : out.note(m)),
          },
        },
      });
      if (!out.json) watch(executor, out);
      if (flags.metricsPort !== undefined) {
        const port = positive('--metrics-port', flags.metricsPort) ?? 0;
        const metrics = (metricsOf(executor) ?? attachMetrics(executor)).withProcessMetrics();
        const server = await serveMetrics(metrics, Math.floor(port), {
          host: flags.metricsHost,
          drain: { drain: () => ({ state: 'stopping', ...executor.drain() }) },
        });
        deps.onClose(() => server.close());
        out.note(`metrics on ${server.url}/metrics, health on ${server.url}/healthz`);
      }
      const stopGraceMs = (positive('--stop-grace', flags.stopGrace) ?? 30) * 1000;

      if (flags.once) {
        // Journal times follow the executor's clock (virtual with --sandbox-clock): compare rows, not times.
        const before = new Map(executor.journal.list({ limit: 10_000 }).map((r) => [r.id, r.updated_at]));
        await executor.runOnce();
        await executor.stop({ graceMs: 0 });
        const touched = executor.journal
          .list({ limit: 10_000 })
          .filter((r) => before.get(r.id) !== r.updated_at);
        const failed = touched.filter((r) => r.state === 'failed');
        out.result({ executor: snakeCaseKeys(executor.status()), runs: touched.map(runRow) }, () =>
          out.note(`${touched.length} run(s) this pass, ${failed.length} failed`),
        );
        if (failed.length > 0 || executor.lastError()) deps.setExitCode(EXIT.other);
        return;
      }

      // The daemon: passes on the clock until SIGTERM or SIGINT, then a graceful stop.
      const signalled = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGTERM', () => resolve('SIGTERM'));
        process.once('SIGINT', () => resolve('SIGINT'));
      });
      // For `postdesk executor status` in another terminal: registering, idle, running… and since when.
      const stateFile = keepDaemonState(executor, daemonStateFile(executorDataDir(core.dataDir)), {
        onError: (err) => out.note(`could not write the daemon's state file: ${errorText(err)}`),
        // `postdesk executor drain` without --port: the daemon of this data directory.
        drain: {
          file: drainRequestFile(executorDataDir(core.dataDir)),
          onRequest: () => executor.drain(),
        },
      });
      deps.onClose(() => stateFile.stop());
      executor.start();
      out.note(
        `executor "${executor.name}" running agent type ${executor.agentType}; SIGTERM or Ctrl-C stops it`,
      );
      const signal = await signalled;
      out.note(`${signal}: letting running runs finish for up to ${stopGraceMs / 1000} s`);
      await executor.stop({ graceMs: stopGraceMs, reason: `the executor received ${signal}` });
      const runs: JournalRun[] = executor.journal.list({ limit: 50 });
      out.result({ executor: snakeCaseKeys(executor.status()), runs: runs.map(runRow) }, () =>
        out.note('executor stopped'),
      );
    });

  cmd
    .command('folder-agent')
    .description(
      'the built-in folder agent as an agent command: publishes the next file of a folder (caption from <name>.txt)',
    )
    .option(
      '--folder <dir>',
      "the folder (else $POSTDESK_FOLDER, which the executor sets from the automation's automationFolders entry)",
    )
    .option(
      '--state <file>',
      'where published files are remembered (default <folder>/.postdesk-folder-agent.json)',
    )
    .action(async (_flags: unknown, self: Command) => {
      // `--folder` is also an option of `executor` itself, which commander gives the parent first.
      const flags = self.optsWithGlobals<{ folder?: string; state?: string }>();
      deps.setExitCode(await folderAgentMain({ folder: flags.folder, state: flags.state }));
    });

  registerExecutorServiceCommand(cmd, deps);
  registerExecutorDrainCommand(cmd, deps);
  registerExecutorStatusCommand(cmd, deps);
}
