import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../services';
import { agentOf, type Settings } from '../../../src-shared/settings';
import { executorDataDir } from '../paths';
import { errorText } from '../common/error-text';
import { silentLogger } from '../common/logger';
import { resolveApiKeyWithSource } from '../secrets/secret-store';
import { UPTIME_BEAT_MS, openUptimeLog, type UptimeLog } from '../gaps/uptime';
import { createSettingsTools, toolSettingsOf } from '../media/tools';
import { createCoreMedia } from './media-core';
import type { AgentCommand } from './agent-process';
import { inProcessCardAgent, inProcessFolderAgent, processAgent, type AgentRunner } from './agent-runner';
import type { ConfinementSource } from './confine/launch';
import type { Clock } from './clock';
import { EXECUTOR_DEFAULTS, type ExecutorConfig } from './config';
import { confinementFromSettings } from './confine/policy';
import { retentionOf } from './prune';
import { attachMetrics } from './metrics';
import { Executor } from './executor';

export interface FromCoreOptions {
  /** Which configured agent type to run; default: the only configured one, else the built-in `folder`. */
  readonly agentType?: string;
  readonly name?: string;
  readonly clock?: Clock;
  /** The folder of automations without one in the `automationFolders` setting (`postdesk executor --folder`). */
  readonly folder?: string;
  readonly overrides?: Partial<ExecutorConfig>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Picks the agent type and its command from the settings' `agentCommands`. */
export function chooseAgent(
  commands: Settings['agentCommands'],
  wanted?: string,
): { agentType: string; agent: AgentCommand | undefined } {
  const types = Object.keys(commands);
  if (wanted) {
    const cmd = commands[wanted];
    if (!cmd && wanted !== 'folder')
      throw new Error(
        `no command is configured for the agent type "${wanted}" (configured: ${types.join(', ') || 'none'}); ` +
          'set one with `postdesk config set agentCommands \'{"<type>":{"command":"…","args":[…]}}\'`',
      );
    return { agentType: wanted, agent: cmd };
  }
  if (types.length === 0) return { agentType: 'folder', agent: undefined };
  if (types.length > 1)
    throw new Error(`several agent types are configured (${types.join(', ')}); choose one with --agent-type`);
  const only = types[0] as string;
  return { agentType: only, agent: commands[only] };
}

/**
 * The user's folder for an automation, from the settings at each run (a change applies to the next run).
 * The service's automation id only looks the entry up: an id like "constructor" finds nothing.
 */
export function automationFolderOf(
  settings: () => Readonly<Settings>,
): (automationId: string) => string | undefined {
  return (automationId) => {
    const folders = settings().automationFolders;
    const folder = Object.hasOwn(folders, automationId) ? folders[automationId] : undefined;
    if (folder === undefined) return undefined;
    return folder.startsWith('~/') ? join(homedir(), folder.slice(2)) : folder;
  };
}

/**
 * The agent the user chose for an automation (the `automationAgents` setting), read at each run so a change
 * applies to the next one. With the offline sandbox (`demo`), an automation with no agent and no folder chosen,
 * where no agent command is configured either, runs the built-in caption card: the demo works out of the box.
 * A chosen agent type that is no longer configured fails the run and says so, rather than running another.
 */
export function automationAgentOf(
  settings: () => Readonly<Settings>,
  confinement: ConfinementSource | undefined,
  o: { readonly demo: boolean; readonly folder?: string | undefined },
): (automationId: string) => AgentRunner | undefined {
  // The card draws with the ffmpeg of the settings, read at each use like every other media tool.
  const card = inProcessCardAgent(createSettingsTools(() => toolSettingsOf(settings())));
  const folder = inProcessFolderAgent();
  return (automationId) => {
    const s = settings();
    const { type, source } = agentOf(automationId, {
      agents: s.automationAgents,
      folders: s.automationFolders,
      commands: Object.keys(s.agentCommands),
      demo: o.demo,
      folder: o.folder,
    });
    if (source === 'executor' || type === null) return undefined;
    if (type === 'card') return card;
    if (type === 'folder') return folder;
    const command = Object.hasOwn(s.agentCommands, type) ? s.agentCommands[type] : undefined;
    if (command) return processAgent(command, confinement);
    return async () => ({
      kind: 'spawn-error',
      message: `the agent "${type}" chosen for this automation is not configured on this computer any more; choose another on the Automations screen`,
    });
  };
}

/** What the executor needs of the core; the desktop app builds one per connection from its own parts. */
export type ExecutorCore = Pick<Core, 'dataDir' | 'store' | 'secrets' | 'client' | 'settings'> & {
  readonly endpoint: {
    readonly baseUrl: string;
    /** Non-null for the embedded sandbox, whose port changes each start. */
    readonly sandbox: object | null;
  };
};

/**
 * Keeps the executor's running time in the uptime log (Settings marks the occurrences that fall while none runs):
 * a session from the first state other than `stopped` to `stopped`, with a beat while it runs.
 */
function recordUptime(executor: Executor, log: UptimeLog): void {
  let session: ReturnType<UptimeLog['start']> | null = null;
  let beat: ReturnType<typeof setInterval> | null = null;
  executor.onDidChangeState((status) => {
    if (status.state === 'stopped') {
      if (beat) clearInterval(beat);
      beat = null;
      session?.stop();
      session = null;
    } else if (!session) {
      session = log.start('executor');
      const current = session;
      beat = setInterval(() => current.beat(), UPTIME_BEAT_MS);
      beat.unref?.();
    }
  });
}

/** The executor the CLI daemon and the desktop app run: settings, store, client and data dir from the core. */
export async function createExecutorFromCore(core: ExecutorCore, o: FromCoreOptions = {}): Promise<Executor> {
  const s = core.settings.get();
  const { agentType, agent } = chooseAgent(s.agentCommands, o.agentType);
  const confinement = confinementFromSettings(() => core.settings.get(), [core.dataDir]);
  const logger = o.overrides?.logger ?? silentLogger;
  const key = core.endpoint.sandbox
    ? null
    : (
        await resolveApiKeyWithSource(core.secrets, o.env ?? process.env).catch((err: unknown) => {
          // Without the key the executor still runs; only its scrubbing of the key is lost.
          logger.warn(`the API key could not be read to keep it out of run logs: ${errorText(err)}`);
          return null;
        })
      )?.key;
  const executor = new Executor({
    api: core.client,
    store: core.store,
    // The embedded sandbox gets a new port each start; its runs belong to "the sandbox of this data dir".
    scope: core.endpoint.sandbox ? 'sandbox' : core.endpoint.baseUrl,
    dataDir: executorDataDir(core.dataDir),
    name: o.name ?? s.executorName ?? `${hostname()} (postdesk)`,
    agentType,
    agent,
    folderFor: automationFolderOf(() => core.settings.get()),
    ...(o.folder !== undefined ? { folder: o.folder } : {}),
    agentFor: automationAgentOf(() => core.settings.get(), confinement, {
      demo: core.endpoint.sandbox !== null,
      folder: o.folder,
    }),
    confinement,
    retention: () => retentionOf(core.settings.get()),
    clock: o.clock,
    concurrency: s.concurrency,
    missedRunPolicy: s.missedRunPolicy,
    graceMs: s.graceWindowMinutes * 60_000,
    secrets: key ? [key] : [],
    // The ffmpeg/ffprobe paths of the settings, read at each use so a change applies to the next run.
    media: createCoreMedia({
      tools: createSettingsTools(() => toolSettingsOf(core.settings.get(), o.env ?? process.env)),
    }),
    ...o.overrides,
  });
  const syncMs = o.overrides?.syncIntervalMs ?? EXECUTOR_DEFAULTS.syncIntervalMs;
  attachMetrics(executor, { ...(o.clock ? { clock: o.clock } : {}), healthyWithinMs: 3 * syncMs });
  recordUptime(executor, openUptimeLog(core.store));
  return executor;
}
