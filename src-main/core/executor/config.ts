import type { Logger } from '../common/logger';
import type { AgentCommand } from './agent-process';
import { inProcessCardAgent, inProcessFolderAgent, processAgent, type AgentRunner } from './agent-runner';
import type { Clock } from './clock';
import type { ConfinementSource } from './confine/launch';
import type { RetentionPolicy } from './prune';
import type { StoreLike } from './journal';
import type { ExecutorMedia } from './media-port';
import type { MissedRunPolicy } from '../../../src-shared/settings';
import type { ExecutorApi } from './ports';

/** Everything an executor is built from; only the first six have no default. */
export interface ExecutorConfig {
  readonly api: ExecutorApi;
  readonly store: StoreLike;
  /** Keeps identities and journals of different services apart: the base URL. */
  readonly scope: string;
  /** Run directories go to `<dataDir>/runs/<local run id>`. */
  readonly dataDir: string;
  readonly name: string;
  readonly agentType: string;
  readonly deviceLabel?: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** The agent: a command, a runner, or (agent type `folder` only) omitted for the in-process folder agent. */
  readonly agent?: AgentCommand | AgentRunner;
  /**
   * The user's folder for an automation (the `automationFolders` setting): what the built-in folder agent
   * publishes from, and `POSTDESK_FOLDER` for an agent command. Never from the service: instructions and
   * skills are data for the agent, not configuration of the executor.
   */
  readonly folderFor?: (automationId: string) => string | undefined;
  /** The folder of automations without one of their own (`postdesk executor --folder`). */
  readonly folder?: string;
  /**
   * The agent the user chose for one automation (the `automationAgents` setting), read at each run; none
   * (or undefined for this automation): the executor's own agent runs it.
   */
  readonly agentFor?: (automationId: string) => AgentRunner | undefined;
  /** How an agent command is confined (the `agentConfinement` settings); none given: never. */
  readonly confinement?: ConfinementSource;
  /** How long run directories are kept; pruned at start and every six hours while started. None: kept. */
  readonly retention?: () => RetentionPolicy;
  readonly clock?: Clock;
  readonly media?: ExecutorMedia;
  readonly concurrency?: number;
  readonly syncIntervalMs?: number;
  readonly runTimeoutMs?: number;
  readonly missedRunPolicy?: MissedRunPolicy;
  readonly graceMs?: number;
  /** An occurrence at most this late counts as on time (default: the sync interval plus a minute). */
  readonly onTimeMs?: number;
  readonly leaseSeconds?: number;
  readonly directUploadPollMs?: number;
  readonly directUploadTimeoutMs?: number;
  /** Values never to reach an agent, a log or the service (the API key). */
  readonly secrets?: readonly string[];
  readonly maxEventsPerRun?: number;
  /**
   * How long (real time) a step's `started` event waits before it is sent: a step that ends sooner is sent
   * once, as its end with `metadata.started_at` (see RunContext.step).
   */
  readonly stepHoldMs?: number;
  /** First backoff (real time) of the executor's own retries of transient failures; doubles up to 3 s. */
  readonly retryBaseMs?: number;
  /** Where the executor reports what it did and every failure it caught and did not rethrow. */
  readonly logger?: Logger;
}

export const EXECUTOR_DEFAULTS = {
  concurrency: 2,
  syncIntervalMs: 60_000,
  runTimeoutMs: 30 * 60_000,
  missedRunPolicy: 'latest' as MissedRunPolicy,
  graceMs: 15 * 60_000,
  leaseSeconds: 900,
  directUploadPollMs: 2000,
  directUploadTimeoutMs: 15 * 60_000,
  maxEventsPerRun: 500,
  stepHoldMs: 1000,
  retryBaseMs: 200,
  stopGraceMs: 30_000,
  /** Longest wait between registration tries of a started executor (real time, with jitter). */
  registerMaxDelayMs: 30_000,
} as const;

/** What `Executor.configure` changes without a new executor. */
export interface ExecutorSettings {
  readonly concurrency?: number;
  readonly missedRunPolicy?: MissedRunPolicy;
  readonly graceMs?: number;
  /** A new command (or runner) for the same agent type; undefined means the in-process folder agent. */
  readonly agent?: AgentCommand | AgentRunner | undefined;
}

/**
 * The numbers a running executor works with: the config's, with the defaults filled in. Shared by reference
 * between the executor's parts, so that `configure` reaches each of them at its next use.
 */
export interface Tuning {
  concurrency: number;
  syncIntervalMs: number;
  runTimeoutMs: number;
  missedRunPolicy: MissedRunPolicy;
  graceMs: number;
  onTimeMs: number;
  leaseSeconds: number;
  directUploadPollMs: number;
  directUploadTimeoutMs: number;
  maxEventsPerRun: number;
  stepHoldMs: number;
  retryBaseMs: number;
}

export function tuningOf(c: ExecutorConfig): Tuning {
  const syncIntervalMs = c.syncIntervalMs ?? EXECUTOR_DEFAULTS.syncIntervalMs;
  return {
    concurrency: Math.max(1, c.concurrency ?? EXECUTOR_DEFAULTS.concurrency),
    syncIntervalMs,
    runTimeoutMs: c.runTimeoutMs ?? EXECUTOR_DEFAULTS.runTimeoutMs,
    missedRunPolicy: c.missedRunPolicy ?? EXECUTOR_DEFAULTS.missedRunPolicy,
    graceMs: c.graceMs ?? EXECUTOR_DEFAULTS.graceMs,
    onTimeMs: c.onTimeMs ?? syncIntervalMs + 60_000,
    leaseSeconds: c.leaseSeconds ?? EXECUTOR_DEFAULTS.leaseSeconds,
    directUploadPollMs: c.directUploadPollMs ?? EXECUTOR_DEFAULTS.directUploadPollMs,
    directUploadTimeoutMs: c.directUploadTimeoutMs ?? EXECUTOR_DEFAULTS.directUploadTimeoutMs,
    maxEventsPerRun: c.maxEventsPerRun ?? EXECUTOR_DEFAULTS.maxEventsPerRun,
    stepHoldMs: c.stepHoldMs ?? EXECUTOR_DEFAULTS.stepHoldMs,
    retryBaseMs: c.retryBaseMs ?? EXECUTOR_DEFAULTS.retryBaseMs,
  };
}

export function agentRunnerOf(
  agentType: string,
  agent: AgentCommand | AgentRunner | undefined,
  confinement?: ConfinementSource,
): AgentRunner {
  if (typeof agent === 'function') return agent;
  if (agent) return processAgent(agent, confinement);
  if (agentType === 'folder') return inProcessFolderAgent();
  if (agentType === 'card') return inProcessCardAgent();
  throw new Error(`no command is configured for the agent type "${agentType}"`);
}
