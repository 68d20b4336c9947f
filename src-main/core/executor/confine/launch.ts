import type { AgentCommand } from '../agent-process';
import type { LogLine, RunLogWriter } from '../run-log';
import { FileRefused, ensurePrivateDir } from '../../files';
import { bubblewrapArgs, describeView } from './bubblewrap';
import { detectConfiner, type Confiner } from './detect';
import { sandboxExecArgs } from './sandbox-exec';
import { confinementView, hostFacts, resolveCommand, type ConfinementPolicy, type HostFacts } from './view';

/** The policy of a run's automation, read at each run so a settings change applies to the next one. */
export type ConfinementSource = (automationId: string | undefined) => ConfinementPolicy;

/** What the launch needs to know of the run. */
export interface LaunchRun {
  readonly runDir: string;
  readonly folder?: string | undefined;
  readonly automationId?: string | undefined;
  readonly log: RunLogWriter;
  readonly onLog?: ((line: LogLine) => void) | undefined;
}

export type Launch =
  | {
      readonly kind: 'run';
      readonly command: AgentCommand;
      readonly env: Record<string, string>;
      readonly confiner: Confiner['kind'];
    }
  | { readonly kind: 'refused'; readonly reason: string };

/** Where the machine facts come from; tests pin the platform or the search path, nothing else. */
export interface LaunchHost {
  readonly platform?: NodeJS.Platform;
  readonly searchPath?: string;
  readonly host?: HostFacts;
}

/**
 * How to start an agent under the run's confinement policy: wrapped in the confiner, run unconfined (mode
 * `off`, or `auto` where none exists), or refused (mode `required` where none exists). Each outcome is
 * said in the run log, so a person reading it knows what the agent could reach.
 */
export async function confineLaunch(
  command: AgentCommand,
  env: Readonly<Record<string, string>>,
  run: LaunchRun,
  source: ConfinementSource | undefined,
  machine: LaunchHost = {},
): Promise<Launch> {
  const plain: Launch = { kind: 'run', command, env: { ...env }, confiner: 'none' };
  if (!source) return plain;
  const say = async (text: string) => {
    const at = new Date();
    run.log.append('system', text, at);
    run.onLog?.({ at: at.toISOString(), stream: 'system', text });
  };
  const policy = source(run.automationId);
  if (policy.mode === 'off') {
    await say('agent confinement is off: the agent runs with your rights');
    return plain;
  }
  const confiner = await detectConfiner(machine);
  if (confiner.kind === 'none') {
    if (policy.mode === 'required') {
      const reason = `agent confinement is required, but ${confiner.reason}`;
      await say(reason);
      return { kind: 'refused', reason };
    }
    await say(`agent runs unconfined: ${confiner.reason}; it can read what you can read`);
    return plain;
  }
  const searchPath = machine.searchPath ?? env.PATH ?? process.env.PATH ?? '';
  const view = confinementView({
    runDir: run.runDir,
    folder: run.folder,
    policy,
    host: machine.host ?? hostFacts(),
    command,
    searchPath,
  });
  try {
    await makeAgentDirs(view);
  } catch (err) {
    if (!(err instanceof FileRefused)) throw err;
    const reason = `the agent's home or temporary folder in its run folder is not a plain folder: ${err.message}`;
    await say(reason);
    return { kind: 'refused', reason };
  }
  const confinedEnv = { ...env, HOME: view.agentHome, TMPDIR: view.agentTmp };
  let args: string[];
  if (confiner.kind === 'bubblewrap') {
    args = [...bubblewrapArgs(view), '--', command.command, ...command.args];
  } else {
    // sandbox-exec takes no `--`: an absolute program path cannot be read as one of its options.
    const exe = resolveCommand(command.command, searchPath);
    if (!exe) {
      const reason = `the agent program ${command.command} was not found`;
      await say(reason);
      return { kind: 'refused', reason };
    }
    args = [...sandboxExecArgs(view), exe, ...command.args];
  }
  await say(`agent confined with ${confiner.kind}: ${describeView(view)}`);
  return {
    kind: 'run',
    command: { command: confiner.path, args },
    env: confinedEnv,
    confiner: confiner.kind,
  };
}

/**
 * The confined agent's HOME and TMPDIR, folders of its run folder: made 0700, and refused when a link stands at
 * either name (left by an agent of an earlier attempt of the run), which would show the agent what it points at.
 */
export async function makeAgentDirs(view: {
  readonly runDir: string;
  readonly agentHome: string;
  readonly agentTmp: string;
}): Promise<void> {
  await ensurePrivateDir(view.agentHome, { root: view.runDir });
  await ensurePrivateDir(view.agentTmp, { root: view.runDir });
}
