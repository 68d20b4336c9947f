import type { Command } from 'commander';
import { createCore, openLocal, type Core } from '../core/services';
import { dataDir } from '../core/paths';
import { apiKeyFromEnv } from '../core/secrets/secret-store';
import { errorText } from '../core/common/error-text';
import { createLineLogger, type Logger } from '../core/common/logger';
import type { CliIo } from './output';
import { Output } from './output';
import { startSandboxInProcess } from './sandbox-connect';

export interface GlobalOptions {
  json: boolean;
  baseUrl: string | null;
  sandbox: boolean;
  verbose: boolean;
}

export type LocalCore = ReturnType<typeof openLocal>;

/**
 * What every command gets: the core for this invocation's global options (built once, closed by the runner),
 * output, and the process's streams and environment. Commands register with `register<Name>Command(program, deps)`.
 */
export interface CliDeps {
  readonly io: CliIo;
  readonly dataDir: string;
  /** Lines on stderr with `--verbose`, nothing without: what the core caught and rode out. */
  readonly log: Logger;
  globals(cmd: Command): GlobalOptions;
  output(cmd: Command): Output;
  /** The core. On first build it replays the outbox (unsent or unconfirmed posts), unless `replay: false`. */
  core(cmd: Command, opts?: { replay?: boolean }): Promise<Core>;
  /** Store, keychain and settings only, for commands that never call the service. */
  local(): LocalCore;
  /** Sets the exit code for a command that finished without throwing but did not fully succeed. */
  setExitCode(code: number): void;
  /** Runs when the invocation ends (after the action resolved or threw). */
  onClose(fn: () => Promise<void> | void): void;
}

export interface InvocationState {
  exitCode: number;
  /** Set once the command line is parsed (`--verbose`), before the action runs. */
  setVerbose(on: boolean): void;
  close(): Promise<void>;
}

export function globalsOf(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<{ json?: boolean; baseUrl?: string; sandbox?: boolean; verbose?: boolean }>();
  return {
    json: o.json === true,
    baseUrl: o.baseUrl ?? null,
    sandbox: o.sandbox === true,
    verbose: o.verbose === true,
  };
}

export function createDeps(io: CliIo): { deps: CliDeps; state: InvocationState } {
  const dir = dataDir(io.env);
  let corePromise: Promise<Core> | null = null;
  let local: LocalCore | null = null;
  const closers: (() => Promise<void> | void)[] = [];
  let verbose = false;
  // The line logger makes each line safe itself (src-shared/safe-text.ts).
  const log: Logger = createLineLogger((line) => {
    if (verbose) io.stderr.write(`${line}\n`);
  }, 'debug');
  const state: InvocationState = {
    exitCode: 0,
    setVerbose(on) {
      verbose = on;
    },
    async close() {
      for (const fn of closers.reverse()) await fn();
      if (corePromise) await (await corePromise.catch(() => null))?.close();
      local?.store.close();
    },
  };

  const deps: CliDeps = {
    io,
    dataDir: dir,
    log,
    globals: globalsOf,
    output: (cmd) => new Output(io, globalsOf(cmd).json),
    core(cmd, opts) {
      corePromise ??= (async () => {
        const g = globalsOf(cmd);
        // A key file that cannot be used stops the command here, before any work, rather than at
        // each call. It is read now, once: nothing later needs the variable again.
        if (!g.sandbox) apiKeyFromEnv(io.env);
        const core = await createCore({
          dataDir: dir,
          env: io.env,
          baseUrl: g.baseUrl,
          sandbox: g.sandbox,
          startSandbox: startSandboxInProcess,
          userAgent: 'postdesk-cli',
          // Someone is waiting at a terminal: give up on a dead service within seconds, not minutes.
          retry: { retries: 3, minTimeoutMs: 200, maxTimeoutMs: 2_000 },
          log,
        });
        if (opts?.replay !== false && core.outbox.unfinishedCount() > 0) {
          const out = deps.output(cmd);
          const n = core.outbox.unfinishedCount();
          try {
            const report = await out.spin(`sending ${n} queued post(s) from the outbox`, () =>
              core.outbox.replay(),
            );
            if (report.pending + report.unconfirmed > 0) {
              out.note(
                `outbox: ${report.pending + report.unconfirmed} post(s) still waiting (see \`postdesk outbox list\`)`,
              );
            }
          } catch (error) {
            log.warn('replaying the outbox failed', { error: errorText(error) });
            out.note('outbox: could not send queued posts now; they stay queued');
          }
        }
        const undecided = core.outbox.list({ states: ['needs_decision'] }).length;
        if (opts?.replay !== false && undecided > 0) {
          deps
            .output(cmd)
            .note(`outbox: ${undecided} publish(es) need your decision (see \`postdesk outbox list\`)`);
        }
        return core;
      })();
      return corePromise;
    },
    local() {
      local ??= openLocal(dir, undefined, io.env);
      return local;
    },
    setExitCode(code) {
      state.exitCode = code;
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
  return { deps, state };
}
