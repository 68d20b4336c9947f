import { errorText } from '../common/error-text';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { LogLine, LogStream, RunLogWriter } from './run-log';
import { parseStepLine, type StepLine } from './step-line';
import type { AgentProgram } from '../../../src-shared/settings';

/**
 * An agent's command as the `agentCommands` setting declares it (an executable and its arguments, never a
 * shell string), plus the environment a caller may add.
 */
export type AgentCommand = Readonly<AgentProgram> & { readonly env?: Readonly<Record<string, string>> };

export interface AgentProcessOptions {
  readonly command: AgentCommand;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Every line of stdout and stderr is appended here, prefixed with its stream. */
  readonly log: RunLogWriter;
  /** Real time: the agent's work does not speed up when a virtual clock does. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: StepLine) => void;
  readonly onSpawn?: (pid: number) => void;
  /** Each line as it is appended to the log file (for live views). */
  readonly onLog?: (line: LogLine) => void;
  /** Time between SIGTERM to the process group and SIGKILL. */
  readonly killGraceMs?: number;
}

export type AgentExit =
  | {
      readonly kind: 'exited';
      readonly code: number | null;
      readonly signal: string | null;
      readonly stderrTail: string;
    }
  | { readonly kind: 'timeout'; readonly stderrTail: string }
  | { readonly kind: 'cancelled'; readonly reason: string; readonly stderrTail: string }
  | { readonly kind: 'spawn-error'; readonly message: string };

/** Signals the whole process group: the agent and everything it started. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

const TAIL = 600;

/** Spawns an agent without a shell in its own process group, streams its log and step lines. */
export function runAgentProcess(o: AgentProcessOptions): Promise<AgentExit> {
  return new Promise((resolve) => {
    const append = (stream: LogStream, text: string) => {
      const at = new Date();
      o.log.append(stream, text, at);
      o.onLog?.({ at: at.toISOString(), stream, text });
    };
    let stderrTail = '';
    let ended: 'timeout' | 'cancelled' | null = null;
    let cancelReason = '';
    let settled = false;
    const child = spawn(o.command.command, [...o.command.args], {
      cwd: o.cwd,
      env: o.env,
      shell: false,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });

    const finish = (exit: AgentExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      // Grandchildren that outlive the agent would keep running unseen: the group goes with the leader.
      if (child.pid !== undefined) killProcessGroup(child.pid, 'SIGKILL');
      resolve(exit);
    };

    const stop = (why: 'timeout' | 'cancelled') => {
      if (ended || settled || child.pid === undefined) return;
      ended = why;
      append(
        'system',
        `${why === 'timeout' ? `timed out after ${o.timeoutMs} ms` : `cancelled: ${cancelReason}`}; stopping the process group`,
      );
      killProcessGroup(child.pid, 'SIGTERM');
      const hard = setTimeout(
        () => child.pid !== undefined && killProcessGroup(child.pid, 'SIGKILL'),
        o.killGraceMs ?? 2000,
      );
      hard.unref();
    };
    const timer = setTimeout(() => stop('timeout'), o.timeoutMs);
    const onAbort = () => {
      cancelReason = errorText(o.signal?.reason ?? 'cancelled');
      stop('cancelled');
    };
    if (o.signal?.aborted) queueMicrotask(onAbort);
    else o.signal?.addEventListener('abort', onAbort, { once: true });

    child.once('spawn', () => {
      if (child.pid !== undefined) o.onSpawn?.(child.pid);
    });
    child.once('error', (err) => {
      append('system', `could not start ${o.command.command}: ${err.message}`);
      finish({ kind: 'spawn-error', message: err.message });
    });

    createInterface({ input: child.stdout }).on('line', (line) => {
      append('stdout', line);
      const step = parseStepLine(line);
      if (step) o.onStep?.(step);
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      append('stderr', line);
      stderrTail = `${stderrTail}\n${line}`.slice(-TAIL);
    });

    // A grandchild holding stdout open would delay 'close' forever; the group ends with its leader.
    child.once('exit', () => child.pid !== undefined && killProcessGroup(child.pid, 'SIGKILL'));
    child.once('close', (code, signal) => {
      const tail = stderrTail.trim();
      if (ended === 'timeout') finish({ kind: 'timeout', stderrTail: tail });
      else if (ended === 'cancelled') finish({ kind: 'cancelled', reason: cancelReason, stderrTail: tail });
      else finish({ kind: 'exited', code, signal, stderrTail: tail });
    });
  });
}
