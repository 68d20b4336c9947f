import type { UploadContentType } from '../../../src-shared/api';
import { errorText } from '../common/error-text';
import type { Logger } from '../common/logger';
import { buildAgentEnv } from './agent-env';
import { runAgentProcess, type AgentCommand, type AgentExit } from './agent-process';
import { runCardAgent } from './agents/card-agent';
import { runFolderAgent } from './agents/folder-agent';
import { defaultTools, type Tools } from '../media/tools';
import { confineLaunch, type ConfinementSource } from './confine/launch';
import type { LogLine, RunLogWriter } from './run-log';
import { parseStepLine, type StepLine } from './step-line';

export interface AgentInvocation {
  readonly runDir: string;
  readonly outputFile: string;
  readonly taskFile: string;
  readonly runJsonFile: string;
  /** The run's log, held open by the executor: the agent's lines go there, never through a name. */
  readonly log: RunLogWriter;
  readonly runId: string;
  readonly automationId?: string;
  /** The user's folder for this run's automation (the `automationFolders` setting, else `--folder`). */
  readonly folder?: string | undefined;
  /** The media every target of the automation accepts, for the folder agent's pick. */
  readonly accept?: readonly UploadContentType[];
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Values that must not reach the agent (API key, run token). */
  readonly secrets: readonly (string | undefined)[];
  readonly onStep: (step: StepLine) => void;
  readonly onSpawn: (pid: number) => void;
  /** Each line as it is appended to the run log. */
  readonly onLog?: (line: LogLine) => void;
  readonly logger?: Logger;
}

/** Runs one agent to completion; never throws, the exit says what happened. */
export type AgentRunner = (inv: AgentInvocation) => Promise<AgentExit>;

/** An agent that is an external program: spawned without a shell in the run directory, confined by policy. */
export function processAgent(command: AgentCommand, confinement?: ConfinementSource): AgentRunner {
  return async (inv) => {
    const env = buildAgentEnv({
      runDir: inv.runDir,
      outputFile: inv.outputFile,
      taskFile: inv.taskFile,
      runJsonFile: inv.runJsonFile,
      folder: inv.folder,
      extra: command.env,
      secrets: inv.secrets,
    });
    const launch = await confineLaunch(command, env, inv, confinement);
    if (launch.kind === 'refused') return { kind: 'spawn-error', message: launch.reason };
    return runAgentProcess({
      command: launch.command,
      cwd: inv.runDir,
      env: launch.env,
      log: inv.log,
      timeoutMs: inv.timeoutMs,
      signal: inv.signal,
      onStep: inv.onStep,
      onSpawn: inv.onSpawn,
      ...(inv.onLog ? { onLog: inv.onLog } : {}),
    });
  };
}

/** Why the folder agent did not run: said in the run's failure, for a person. */
export const NO_FOLDER =
  'folder agent: no folder is set for this automation on this computer; choose one beside the automation on the Automations screen';

/** A built-in agent's work: the run's inputs, where to say its steps; a failure's message for the run. */
type InProcessWork = (
  inv: AgentInvocation,
  say: (line: string) => void,
) => Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;

/**
 * A built-in agent run inside the executor's process (no spawn), with an agent's contract all the same: its
 * `::step` lines become steps and log lines, it is stopped by the timeout and by a cancel, and a failure is
 * the exit of a program that said why on stderr.
 */
function inProcessAgent(label: string, work: InProcessWork): AgentRunner {
  return async (inv) => {
    const say = (line: string) => {
      const at = new Date();
      inv.log.append('stdout', line, at);
      inv.onLog?.({ at: at.toISOString(), stream: 'stdout', text: line });
      const step = parseStepLine(line);
      if (step) inv.onStep(step);
    };
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<AgentExit>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout', stderrTail: '' }), inv.timeoutMs);
      const onAbort = () =>
        resolve({
          kind: 'cancelled',
          reason: errorText(inv.signal.reason ?? 'cancelled'),
          stderrTail: '',
        });
      if (inv.signal.aborted) onAbort();
      else inv.signal.addEventListener('abort', onAbort, { once: true });
    });
    const done = work(inv, say).then(
      (r): AgentExit =>
        r.ok
          ? { kind: 'exited', code: 0, signal: null, stderrTail: '' }
          : { kind: 'exited', code: 1, signal: null, stderrTail: `${label}: ${r.message}` },
      (err: unknown): AgentExit => ({
        kind: 'exited',
        code: 1,
        signal: null,
        stderrTail: `${label}: ${errorText(err)}`,
      }),
    );
    try {
      return await Promise.race([done, stopped]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The built-in folder agent, run inside the executor's process (no spawn, same behaviour). Its folder is
 * the user's setting for the automation, never a line of the instructions or the skill.
 */
export function inProcessFolderAgent(): AgentRunner {
  return async (inv) => {
    if (!inv.folder) return { kind: 'exited', code: 1, signal: null, stderrTail: NO_FOLDER };
    const folder = inv.folder;
    return inProcessAgent('folder agent', (i, say) =>
      runFolderAgent({
        folder,
        outputFile: i.outputFile,
        runId: i.runId,
        say,
        ...(i.accept ? { accept: i.accept } : {}),
      }),
    )(inv);
  };
}

/**
 * The built-in caption-card agent (agents/card-agent.ts): needs no folder and no AI, so an automation
 * works out of the box (the offline demo's do). `tools`: the ffmpeg it draws with.
 */
export function inProcessCardAgent(tools: Tools = defaultTools()): AgentRunner {
  return inProcessAgent('caption-card agent', (inv, say) =>
    runCardAgent({ runDir: inv.runDir, outputFile: inv.outputFile, tools, signal: inv.signal, say }),
  );
}

/** The one-line story of an agent that did not succeed, for the run's failure message. */
export function describeAgentExit(exit: AgentExit, timeoutMs: number): string | null {
  const tail = (t: string) => (t ? `; last output: ${t.split('\n').slice(-5).join(' | ')}` : '');
  switch (exit.kind) {
    case 'exited':
      if (exit.code === 0) return null;
      return exit.signal
        ? `agent was killed by ${exit.signal}${tail(exit.stderrTail)}`
        : `agent exited with code ${exit.code}${tail(exit.stderrTail)}`;
    case 'timeout':
      return `agent timed out after ${Math.round(timeoutMs / 1000)} s and was stopped with its process tree${tail(exit.stderrTail)}`;
    case 'cancelled':
      return `agent was cancelled (${exit.reason}) and stopped with its process tree`;
    case 'spawn-error':
      return `agent could not be started: ${exit.message}`;
  }
}
