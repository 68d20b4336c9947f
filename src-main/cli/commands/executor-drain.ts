import { InvalidArgumentError, type Command } from 'commander';
import {
  daemonStateFile,
  drainRequestFile,
  readDaemonState,
  requestDrain,
} from '../../core/executor/daemon-state';
import { DRAIN_HEADER } from '../../core/executor/metrics-server';
import { executorDataDir } from '../../core/paths';
import type { CliDeps } from '../context';
import { EXIT, UnreachableError } from '../exit-codes';

interface DrainFlags {
  port?: number;
  wait?: number;
}

const portArg = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new InvalidArgumentError(`a port number from 1 to 65535, got "${v}"`);
  return n;
};

const secondsArg = (v: string): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`seconds, at least 0, got "${v}"`);
  return n;
};

interface Drained {
  readonly state: string;
  readonly active_runs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks the daemon through its metrics port (`--metrics-port`): what a pod's preStop hook can do. */
async function drainByPort(port: number): Promise<Drained> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/drain`, {
      method: 'POST',
      headers: { [DRAIN_HEADER]: 'drain' },
    });
  } catch {
    throw new UnreachableError(
      `no executor answered on port ${port} of this machine (--port: its --metrics-port)`,
    );
  }
  if (res.status !== 202)
    throw new Error(`the executor on port ${port} refused to drain (it answered ${res.status})`);
  return (await res.json()) as Drained;
}

/**
 * Asks the daemon of this data directory through its drain request file, then reads what it says of itself
 * in its state file once it has taken the request (it looks every second).
 */
async function drainLocal(dataDir: string, first: boolean): Promise<Drained> {
  const dir = executorDataDir(dataDir);
  const state = readDaemonState(daemonStateFile(dir));
  if (state.kind !== 'live') throw new Error('no executor daemon is running for this data directory');
  if (first) requestDrain(drainRequestFile(dir), state.state.pid);
  const until = Date.now() + 10_000;
  for (;;) {
    const now = readDaemonState(daemonStateFile(dir));
    if (now.kind === 'none' || now.kind === 'stale') return { state: 'stopped', active_runs: 0 };
    if (now.kind === 'live' && (now.state.state === 'stopping' || now.state.state === 'stopped'))
      return { state: now.state.state, active_runs: now.state.active_runs };
    if (Date.now() > until) throw new Error('the executor daemon did not take the drain request within 10 s');
    await sleep(100);
  }
}

/**
 * `postdesk executor drain`: asks a running daemon to finish its runs and start no more (it then shows
 * `stopping`), and says how many runs it still waits on. The other executors of the fleet take the next
 * occurrences. `--wait` waits for those runs; the daemon itself keeps running until it is stopped.
 */
export function registerExecutorDrainCommand(executor: Command, deps: CliDeps): void {
  executor
    .command('drain')
    .description(
      'ask the running executor daemon to finish its runs and start no more; says how many it still waits on',
    )
    .option(
      '--port <port>',
      "the daemon's --metrics-port on this machine (else the daemon of this data directory)",
      portArg,
    )
    .option(
      '--wait <seconds>',
      'wait up to this long for its runs to finish (exit 1 if some still run)',
      secondsArg,
    )
    .action(async (flags: DrainFlags, self: Command) => {
      const out = deps.output(self);
      const { port } = flags;
      const waitS = flags.wait ?? 0;
      const ask = (first: boolean) =>
        port !== undefined ? drainByPort(port) : drainLocal(deps.dataDir, first);
      let d = await ask(true);
      const until = Date.now() + waitS * 1000;
      while (d.active_runs > 0 && Date.now() < until) {
        await sleep(250);
        d = await ask(false);
      }
      if (flags.wait !== undefined && d.active_runs > 0) deps.setExitCode(EXIT.other);
      out.result({ state: d.state, active_runs: d.active_runs }, () =>
        out.note(
          d.active_runs === 0
            ? 'drained: no run in progress, and no new run starts on this executor'
            : `draining: waiting on ${d.active_runs} run(s); no new run starts on this executor`,
        ),
      );
    });
}
