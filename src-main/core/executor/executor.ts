import { hostname } from 'node:os';
import { join } from 'node:path';
import { LIMITS, type Automation, type Run } from '../../../src-shared/api';
import { killProcessGroup, type AgentCommand } from './agent-process';
import { inProcessFolderAgent, processAgent, type AgentRunner } from './agent-runner';
import { systemClock, type Clock } from './clock';
import type { ConfinementSource } from './confine/launch';
import { schedulePruning, type RetentionPolicy } from './prune';
import { Emitter } from './emitter';
import {
  Journal,
  TERMINAL_PHASES,
  type JournalRun,
  type NewRun,
  type ReasonCode,
  type StoreLike,
} from './journal';
import { createCoreMedia } from './media-core';
import type { ExecutorMedia } from './media-port';
import { nextOccurrence, occurrencesBetween, planOccurrences, type MissedCode } from './occurrences';
import type { MissedRunPolicy } from '../../../src-shared/settings';
import { errorFacts, hasCode, isTransient, type ExecutorApi } from './ports';
import { clip, redact } from './redact';
import { retryTransient, type RetryOptions } from './retry';
import { RunContext, RunFailure, type RunDeps, type RunLogEvent, type StepEvent } from './run-context';
import { CancelReason, executeStarted, failRun, readOutput, startLocal, type RunOutcome } from './run-flow';

export interface ExecutorOptions {
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
  /** First backoff (real time) of the executor's own retries of transient failures; doubles up to 3 s. */
  readonly retryBaseMs?: number;
  readonly log?: (line: string) => void;
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
  retryBaseMs: 200,
  stopGraceMs: 30_000,
} as const;

export type ExecutorState = 'stopped' | 'idle' | 'running' | 'paused' | 'offline' | 'stopping';

export interface ExecutorStatus {
  readonly state: ExecutorState;
  readonly executorId: string | null;
  readonly lastSyncAt: string | null;
  readonly lastError: string | null;
  readonly activeRuns: number;
  readonly automations: number;
}

export interface RunInfo {
  /** The service's run id once known, else the local id: what the tray and notifications show. */
  readonly id: string;
  /** The automation's name (its id when the name is unknown). */
  readonly name: string;
  readonly localId: string;
  readonly runId: string | null;
  readonly automationId: string;
  readonly automationName: string | null;
  readonly scheduledFor: string | null;
  readonly queue: 'local' | 'legacy';
  readonly state: JournalRun['state'];
  readonly step: string | null;
}

export interface RunFailedEvent extends RunInfo {
  readonly code: ReasonCode;
  readonly message: string;
  /** The same as `message`: what the service was told, at most 1,000 characters. */
  readonly error: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What `Executor.configure` changes without a new executor. */
export interface ExecutorSettings {
  readonly concurrency?: number;
  readonly missedRunPolicy?: MissedRunPolicy;
  readonly graceMs?: number;
  /** A new command (or runner) for the same agent type; undefined means the in-process folder agent. */
  readonly agent?: AgentCommand | AgentRunner | undefined;
}

function agentRunnerOf(
  agentType: string,
  agent: AgentCommand | AgentRunner | undefined,
  confinement?: ConfinementSource,
) {
  if (typeof agent === 'function') return agent;
  if (agent) return processAgent(agent, confinement);
  if (agentType === 'folder') return inProcessFolderAgent();
  throw new Error(`no command is configured for the agent type "${agentType}"`);
}

const RUN_TERMINAL: readonly Run['state'][] = ['completed', 'failed', 'skipped'];

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const info = (row: JournalRun): RunInfo => ({
  id: row.run_id ?? row.id,
  name: row.automation_name ?? row.automation_id,
  localId: row.id,
  runId: row.run_id,
  automationId: row.automation_id,
  automationName: row.automation_name,
  scheduledFor: row.scheduled_for,
  queue: row.queue,
  state: row.state,
  step: row.step,
});

/**
 * The embedded executor. One pass (`tick`) registers once, syncs, acks new revisions, decides every
 * occurrence since the last pass (run, or not run with a reason), claims legacy runs, and starts runs
 * within the concurrency limit. `start()` repeats passes on the clock; `runOnce()` is one pass, awaited.
 */
export class Executor {
  private readonly o: Mutable<
    Required<
      Pick<
        ExecutorOptions,
        | 'concurrency'
        | 'syncIntervalMs'
        | 'runTimeoutMs'
        | 'missedRunPolicy'
        | 'graceMs'
        | 'leaseSeconds'
        | 'directUploadPollMs'
        | 'directUploadTimeoutMs'
        | 'maxEventsPerRun'
        | 'retryBaseMs'
      >
    >
  > & { onTimeMs: number };
  readonly journal: Journal;
  private readonly clock: Clock;
  private readonly media: ExecutorMedia;
  private agent: AgentRunner;
  private executorId: string | null = null;
  private automations = new Map<string, Automation>();
  private readonly inFlight = new Map<string, { ctx: RunContext | null; done: Promise<void> }>();
  private readonly waiting: JournalRun[] = [];
  private passing: Promise<void> | null = null;
  private initialized: Promise<void> | null = null;
  private current: ExecutorState = 'stopped';
  private lastSyncAt: string | null = null;
  private lastError_: string | null = null;
  private nextWakeAt: string | null = null;
  private paused = false;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private pruning: { stop(): void } | null = null;
  private wake = new AbortController();
  private syncWanted = false;
  private missedHint: { code: MissedCode; because: string } | null = null;
  private syncFailures = 0;
  private loopPasses = 0;

  private readonly stateEmitter = new Emitter<ExecutorStatus>();
  private readonly startEmitter = new Emitter<RunInfo>();
  private readonly stepEmitter = new Emitter<StepEvent>();
  private readonly logEmitter = new Emitter<RunLogEvent>();
  private readonly finishEmitter = new Emitter<RunInfo>();
  private readonly failEmitter = new Emitter<RunFailedEvent>();
  private readonly missEmitter = new Emitter<RunFailedEvent>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidStartRun = this.startEmitter.event;
  readonly onDidStepRun = this.stepEmitter.event;
  /** Every line appended to a run's `run.log` (executor steps, agent stdout/stderr), redacted. */
  readonly onDidLogRun = this.logEmitter.event;
  readonly onDidFinishRun = this.finishEmitter.event;
  readonly onDidFailRun = this.failEmitter.event;
  readonly onDidMissRun = this.missEmitter.event;

  constructor(private readonly opts: ExecutorOptions) {
    const syncIntervalMs = opts.syncIntervalMs ?? EXECUTOR_DEFAULTS.syncIntervalMs;
    this.o = {
      concurrency: Math.max(1, opts.concurrency ?? EXECUTOR_DEFAULTS.concurrency),
      syncIntervalMs,
      runTimeoutMs: opts.runTimeoutMs ?? EXECUTOR_DEFAULTS.runTimeoutMs,
      missedRunPolicy: opts.missedRunPolicy ?? EXECUTOR_DEFAULTS.missedRunPolicy,
      graceMs: opts.graceMs ?? EXECUTOR_DEFAULTS.graceMs,
      onTimeMs: opts.onTimeMs ?? syncIntervalMs + 60_000,
      leaseSeconds: opts.leaseSeconds ?? EXECUTOR_DEFAULTS.leaseSeconds,
      directUploadPollMs: opts.directUploadPollMs ?? EXECUTOR_DEFAULTS.directUploadPollMs,
      directUploadTimeoutMs: opts.directUploadTimeoutMs ?? EXECUTOR_DEFAULTS.directUploadTimeoutMs,
      maxEventsPerRun: opts.maxEventsPerRun ?? EXECUTOR_DEFAULTS.maxEventsPerRun,
      retryBaseMs: opts.retryBaseMs ?? EXECUTOR_DEFAULTS.retryBaseMs,
    };
    this.clock = opts.clock ?? systemClock;
    this.media = opts.media ?? createCoreMedia();
    this.journal = new Journal(opts.store, opts.scope, () => this.clock.now().toISOString());
    this.agent = agentRunnerOf(opts.agentType, opts.agent, opts.confinement);
  }

  /**
   * Applies changed settings in place: later passes and runs use them, running runs finish as they began.
   * The agent type is the executor's identity with the service, so changing it needs a new executor.
   */
  configure(c: Readonly<ExecutorSettings>): void {
    if (c.concurrency !== undefined) this.o.concurrency = Math.max(1, c.concurrency);
    if (c.missedRunPolicy !== undefined) this.o.missedRunPolicy = c.missedRunPolicy;
    if (c.graceMs !== undefined) this.o.graceMs = c.graceMs;
    if ('agent' in c) this.agent = agentRunnerOf(this.opts.agentType, c.agent, this.opts.confinement);
    // A higher limit may let queued runs start now rather than at the next pass.
    this.pump();
  }

  /** The settings `configure` can change, as they are now. */
  settings(): Required<Omit<ExecutorSettings, 'agent'>> {
    return {
      concurrency: this.o.concurrency,
      missedRunPolicy: this.o.missedRunPolicy,
      graceMs: this.o.graceMs,
    };
  }

  // ---- public surface -------------------------------------------------------------------------

  get name(): string {
    return this.opts.name;
  }

  get agentType(): string {
    return this.opts.agentType;
  }

  status(): ExecutorStatus {
    return {
      state: this.current,
      executorId: this.executorId,
      lastSyncAt: this.lastSyncAt,
      lastError: this.lastError_,
      activeRuns: this.inFlight.size,
      automations: this.automations.size,
    };
  }

  /** The four states the app shows: offline counts as idle (see `lastError()`), stopping as running. */
  state(): 'stopped' | 'idle' | 'running' | 'paused' {
    switch (this.current) {
      case 'offline':
        return this.inFlight.size > 0 ? 'running' : 'idle';
      case 'stopping':
        return this.inFlight.size > 0 ? 'running' : 'stopped';
      default:
        return this.current;
    }
  }

  isPaused(): boolean {
    return this.paused;
  }

  lastError(): string | null {
    return this.lastError_;
  }

  /** When the loop next wakes for a sync or an occurrence (null when not started). */
  nextSyncAt(): string | null {
    return this.nextWakeAt;
  }

  /** The next occurrence of an automation's schedule, as this executor computes it. */
  nextOccurrence(a: Pick<Automation, 'schedule'>): string | null {
    return nextOccurrence(a.schedule, this.clock.now())?.toISOString() ?? null;
  }

  activeRuns(): RunInfo[] {
    return [...this.inFlight.keys()].flatMap((id) => {
      const row = this.journal.get(id);
      return row ? [info(row)] : [];
    });
  }

  /** One pass, then waits for every run it (or an earlier pass) started. */
  async runOnce(now?: Date): Promise<void> {
    await this.tick(now);
    await this.idle();
  }

  /** One sync-and-run pass; runs it starts go on in the background. Concurrent calls share a pass. */
  tick(now?: Date): Promise<void> {
    if (this.passing) return this.passing;
    this.passing = (async () => {
      try {
        try {
          await this.init();
        } catch (err) {
          // Unreachable service: the next pass tries again. Anything else (a refused key) is the caller's.
          if (isTransient(err)) return;
          throw err;
        }
        await this.pass(now ?? this.clock.now());
      } finally {
        this.passing = null;
      }
    })();
    return this.passing;
  }

  /** Resolves when no run is in flight or waiting for a slot. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || (this.waiting.length > 0 && !this.paused && !this.stopping)) {
      await Promise.all([...this.inFlight.values()].map((f) => f.done));
      if (this.inFlight.size === 0 && this.waiting.length > 0) this.pump();
      if (this.inFlight.size === 0) break;
    }
  }

  /** Runs passes on the clock until `stop()`: at each sync interval, at each occurrence, and on demand. */
  start(): void {
    if (this.loopDone) return;
    this.stopping = false;
    this.loopDone = this.loop();
    if (this.opts.retention) {
      const [runsDir, policy] = [join(this.opts.dataDir, 'runs'), this.opts.retention];
      const log = (line: string) => this.note(line);
      this.pruning = schedulePruning({ runsDir, journal: this.journal, clock: this.clock, policy, log });
    }
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.setState('paused');
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.missedHint ??= { code: 'executor_paused', because: 'the executor was paused' };
    this.setState(this.inFlight.size > 0 ? 'running' : 'idle');
    this.pump();
    this.syncNow();
  }

  /** Asks the loop for a pass now (or runs one when no loop is started). */
  syncNow(): void {
    this.syncWanted = true;
    if (this.loopDone) this.wake.abort();
    else void this.tick().catch((err: unknown) => this.note(`sync failed: ${errorFacts(err).message}`));
  }

  /**
   * After sleep or downtime: a pass now applies the missed-run policy to what fell due meanwhile, and
   * records `reason` on every occurrence it does not run.
   */
  async runMissed(reason: string): Promise<void> {
    const because = reason === 'sleep' ? 'the computer was asleep' : reason;
    // Set before any await: a pass that `resume()` just asked for must see this reason, not "paused".
    const hint = { code: 'executor_offline' as const, because };
    this.missedHint = hint;
    await this.passing?.catch(() => undefined);
    if (this.missedHint === hint) await this.tick();
  }

  /** Starts one run of an automation now, outside its schedule (idempotency key with the current time). */
  async runNow(automationId: string): Promise<RunInfo> {
    await this.init();
    let a = this.automations.get(automationId);
    if (!a) a = (await this.refresh(automationId)) ?? undefined;
    if (!a) throw new Error(`automation ${automationId} is not one of this executor's`);
    if (a.queue !== 'local') throw new Error('runs of a legacy-queue automation come from the claim queue');
    const at = this.clock.now().toISOString();
    const row = this.journal.insert({
      automationId: a.id,
      automationName: a.name,
      queue: 'local',
      scheduledFor: at,
      revision: a.revision,
      state: 'queued',
      idempotencyKey: `${a.id}:${a.revision}:${at}`,
    });
    if (!row) throw new Error('a run for this instant already exists');
    this.waiting.push(row);
    this.pump();
    return info(this.journal.get(row.id) ?? row);
  }

  /**
   * Fails a run with this reason: a run in progress is cancelled (its process tree killed) and fails
   * with it; one left unfinished in the journal is failed on the service.
   */
  async failRun(id: string, reason: string): Promise<void> {
    const row = this.journal.find(id);
    if (!row) throw new Error(`no run ${id} in the journal`);
    const live = this.inFlight.get(row.id);
    if (live?.ctx) {
      live.ctx.abort.abort(new CancelReason('agent_cancelled', reason));
      await live.done;
      return;
    }
    if (TERMINAL_PHASES.includes(row.state)) return;
    if (row.run_id && this.executorId) {
      await this.retry(() =>
        this.opts.api.failRun(row.run_id as string, {
          error: clip(redact(reason, this.opts.secrets ?? []), LIMITS.runFailureMessage),
          executor_id: this.executorId as string,
          ...(row.claim_token ? { claim_token: row.claim_token } : {}),
        }),
      ).catch((err: unknown) => {
        if (!hasCode(err, 'RUN_NOT_ACTIVE', 'CLAIM_CONFLICT')) throw err;
      });
    }
    this.journal.update(row.id, {
      state: row.run_id ? 'failed' : 'not_run',
      reason_code: 'agent_cancelled',
      reason,
    });
  }

  /**
   * Stops starting runs, lets running ones finish within `graceMs` (real time), then cancels the rest:
   * their process trees are killed and the runs fail with the reason.
   */
  async stop(o: { graceMs?: number; reason?: string } = {}): Promise<void> {
    const graceMs = o.graceMs ?? EXECUTOR_DEFAULTS.stopGraceMs;
    this.stopping = true;
    this.setState('stopping');
    this.wake.abort();
    this.pruning?.stop();
    this.pruning = null;
    await this.loopDone?.catch(() => undefined);
    await this.passing?.catch(() => undefined);
    const all = () => Promise.all([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (expired) {
      const reason = new CancelReason(
        'executor_stopped',
        `${o.reason ?? 'the executor was stopped'} and the run did not finish within the ${graceMs < 1000 ? `${graceMs} ms` : `${Math.round(graceMs / 1000)} s`} grace period`,
      );
      for (const f of this.inFlight.values()) f.ctx?.abort.abort(reason);
      await all();
    }
    this.loopDone = null;
    this.nextWakeAt = null;
    this.setState('stopped');
  }

  // ---- passes -----------------------------------------------------------------------------------

  private retry<T>(fn: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
    return retryTransient(fn, { baseMs: this.o.retryBaseMs, ...o });
  }

  private note(line: string): void {
    this.opts.log?.(line);
  }

  private setState(state: ExecutorState): void {
    if (this.current === state) return;
    this.current = state;
    this.stateEmitter.fire(this.status());
  }

  private settledState(): ExecutorState {
    if (this.stopping) return 'stopping';
    if (this.paused) return 'paused';
    if (this.syncFailures > 0) return 'offline';
    return this.inFlight.size > 0 ? 'running' : 'idle';
  }

  private init(): Promise<void> {
    this.initialized ??= (async () => {
      await this.register();
      await this.recover();
    })().catch((err: unknown) => {
      this.initialized = null;
      throw err;
    });
    return this.initialized;
  }

  private async register(): Promise<void> {
    const known = this.journal.identity();
    const body = {
      name: this.opts.name.slice(0, LIMITS.executorName),
      agent_type: this.opts.agentType.slice(0, LIMITS.agentType),
      device_label: this.opts.deviceLabel ?? hostname(),
      capabilities: {
        queues: ['local', 'legacy'],
        direct_upload: ['tiktok', 'youtube'],
        concurrency: this.o.concurrency,
        platform: process.platform,
        ...this.opts.capabilities,
      },
    };
    let res;
    try {
      res = await this.retry(
        () => this.opts.api.registerExecutor(known ? { ...body, executor_id: known.executorId } : body),
        { answeredOnly: true },
      );
    } catch (err) {
      if (!known || !hasCode(err, 'EXECUTOR_NOT_FOUND')) {
        this.lastError_ = `register failed: ${errorFacts(err).message}`;
        this.syncFailures += 1;
        this.setState('offline');
        throw err;
      }
      this.note(`executor ${known.executorId} is unknown to the service; registering anew`);
      res = await this.retry(() => this.opts.api.registerExecutor(body), { answeredOnly: true });
    }
    this.executorId = res.executor.id;
    this.journal.saveIdentity(res.executor.id, body.name, body.agent_type);
    this.note(`registered as executor ${res.executor.id}`);
  }

  private get id(): string {
    if (!this.executorId) throw new Error('the executor is not registered');
    return this.executorId;
  }

  private async sync(): Promise<Automation[] | null> {
    try {
      const res = await this.retry(() => this.opts.api.syncAutomations(this.id));
      this.syncFailures = 0;
      this.lastError_ = null;
      this.lastSyncAt = this.clock.now().toISOString();
      return res.automations;
    } catch (err) {
      this.syncFailures += 1;
      this.lastError_ = `sync failed: ${errorFacts(err).message}`;
      this.note(this.lastError_);
      this.setState('offline');
      return null;
    }
  }

  /** Is this automation run here? Bound to another executor, it is that executor's. */
  private ours(a: Automation): boolean {
    return !a.executor_id || a.executor_id === this.executorId;
  }

  private async ack(a: Automation): Promise<void> {
    const saved = this.journal.automation(a.id);
    const acked = Math.max(a.acked_revision ?? -1, saved?.acked_revision ?? -1);
    if (a.status === 'removed' || acked >= a.revision) {
      if (saved?.acked_revision !== a.revision && acked >= a.revision)
        this.journal.setAck(a.id, a.revision, null);
      return;
    }
    try {
      await this.retry(() =>
        this.opts.api.ackAutomation(a.id, { executor_id: this.id, revision: a.revision }),
      );
      this.journal.setAck(a.id, a.revision, null);
      this.note(`acknowledged ${a.name} revision ${a.revision}`);
    } catch (err) {
      const f = errorFacts(err);
      this.journal.setAck(a.id, null, `${f.code ?? f.status ?? 'network'}: ${f.message}`);
      if (f.code === 'REVISION_STALE') this.syncWanted = true;
    }
  }

  private async refresh(automationId: string): Promise<Automation | null> {
    const list = await this.sync();
    const a = list?.find((x) => x.id === automationId);
    if (!a) return null;
    this.automations.set(a.id, a);
    this.journal.saveAutomation(a.id, a.revision, a);
    await this.ack(a);
    const saved = this.journal.automation(a.id);
    return saved?.acked_revision === a.revision ? a : null;
  }

  private missedContext(): { code: MissedCode; because: string } {
    if (this.missedHint) return this.missedHint;
    // Between passes of `--once`, or before the loop's first pass, nothing was watching the clock.
    if (!this.loopDone || this.loopPasses <= 1)
      return { code: 'executor_offline', because: 'the executor was not running' };
    return { code: 'executor_offline', because: 'the executor was offline or asleep' };
  }

  private async pass(now: Date): Promise<void> {
    this.syncWanted = false;
    const list = await this.sync();
    if (!list) return;
    const seen = new Map<string, Automation>();
    for (const a of list) {
      this.journal.saveAutomation(a.id, a.revision, a);
      if (!this.ours(a)) continue;
      seen.set(a.id, a);
      await this.ack(a);
    }
    this.automations = seen;
    if (this.stopping) return;
    if (this.paused) {
      this.setState('paused');
      return;
    }
    const missed = this.missedContext();
    this.missedHint = null;
    for (const a of seen.values()) {
      if (a.queue === 'local') this.plan(a, now, missed);
    }
    this.resumeDeferred();
    this.resumeStalled();
    this.pump();
    for (const a of seen.values()) {
      if (a.queue === 'legacy' && a.status === 'active') await this.claim(a);
    }
    this.setState(this.settledState());
  }

  /** Records a decision for every occurrence of `a` since its cursor, then queues those that run. */
  private plan(a: Automation, now: Date, missed: { code: MissedCode; because: string }): void {
    const saved = this.journal.automation(a.id);
    const nowIso = now.toISOString();
    if (!saved?.cursor) {
      // First sight: occurrences before now were never this executor's to run.
      this.journal.recordOccurrences(a.id, nowIso, []);
      return;
    }
    const cursor = new Date(saved.cursor);
    if (cursor.getTime() >= now.getTime()) return;
    let occurrences: Date[];
    try {
      occurrences = occurrencesBetween(a.schedule, cursor, now, 1000);
    } catch (err) {
      this.note(
        `automation ${a.name}: invalid schedule ${a.schedule.cron} (${a.schedule.timezone}): ${(err as Error).message}`,
      );
      this.journal.recordOccurrences(a.id, nowIso, []);
      return;
    }
    const base = {
      automationId: a.id,
      automationName: a.name,
      queue: 'local' as const,
      revision: a.revision,
    };
    const notRun = (d: Date, code: ReasonCode, reason: string): NewRun => ({
      ...base,
      scheduledFor: d.toISOString(),
      state: 'not_run',
      reasonCode: code,
      reason,
    });
    const ackedRevision = saved.acked_revision ?? a.acked_revision ?? null;
    let rows: NewRun[];
    if (a.status === 'paused') {
      rows = occurrences.map((d) => notRun(d, 'automation_paused', 'the automation is paused'));
    } else if (a.status === 'removed') {
      // A removed automation has no occurrences any more: nothing to explain, row after row.
      rows = [];
    } else if (a.targets.length === 0) {
      rows = occurrences.map((d) => notRun(d, 'no_targets', 'the automation has no targets'));
    } else if (ackedRevision === null || ackedRevision < a.revision) {
      const why = saved.ack_error ? `: ${saved.ack_error}` : '';
      rows = occurrences.map((d) =>
        notRun(d, 'revision_not_acked', `revision ${a.revision} could not be acknowledged${why}`),
      );
    } else {
      rows = planOccurrences(occurrences, now, {
        policy: this.o.missedRunPolicy,
        onTimeMs: this.o.onTimeMs,
        graceMs: this.o.graceMs,
        missedBecause: missed.because,
        missedCode: missed.code,
      }).map((d) =>
        d.action === 'run'
          ? {
              ...base,
              scheduledFor: d.scheduledFor.toISOString(),
              state: 'queued',
              idempotencyKey: `${a.id}:${a.revision}:${d.scheduledFor.toISOString()}`,
            }
          : notRun(d.scheduledFor, d.code, d.reason),
      );
    }
    const inserted = this.journal.recordOccurrences(a.id, nowIso, rows);
    for (const row of inserted) {
      if (row.state === 'queued') this.waiting.push(row);
      else {
        this.note(`not run: ${a.name} at ${row.scheduled_for}: ${row.reason}`);
        this.missEmitter.fire({
          ...info(row),
          code: row.reason_code as ReasonCode,
          message: row.reason ?? '',
          error: row.reason ?? '',
        });
      }
    }
  }

  /** Rows of this process left `starting` by a start that got no answer: retried with the same key. */
  private resumeDeferred(): void {
    for (const row of this.journal.list({ states: ['queued', 'starting'], limit: 1000 })) {
      if (row.owner_pid !== process.pid || this.inFlight.has(row.id)) continue;
      if (this.waiting.some((w) => w.id === row.id)) continue;
      this.waiting.push(row);
    }
  }

  private async claim(a: Automation): Promise<void> {
    while (!this.stopping && !this.paused && this.inFlight.size < this.o.concurrency) {
      let res;
      try {
        res = await this.retry(
          () => this.opts.api.claimRun({ automation_id: a.id, lease_seconds: this.o.leaseSeconds }),
          { answeredOnly: true },
        );
      } catch (err) {
        // A claim whose answer was lost expires with its lease and returns to the queue.
        this.note(`claim for ${a.name} failed: ${errorFacts(err).message}`);
        return;
      }
      const run = res.run;
      if (!run) return;
      const row = this.journal.insert({
        automationId: a.id,
        automationName: a.name,
        queue: 'legacy',
        scheduledFor: run.scheduled_for,
        revision: run.revision,
        state: 'running',
        runId: run.id,
        claimToken: run.claim_token,
        leaseExpiresAt: run.lease_expires_at,
      });
      if (!row) return;
      this.journal.update(row.id, { started_at: this.clock.now().toISOString() });
      this.launch(row, a, (ctx) => this.runLegacy(ctx));
    }
  }

  // ---- running -----------------------------------------------------------------------------------

  private deps(): RunDeps {
    return {
      api: this.opts.api,
      media: this.media,
      journal: this.journal,
      clock: this.clock,
      executorId: this.id,
      runsDir: join(this.opts.dataDir, 'runs'),
      agent: this.agent,
      folderFor: (automationId) => this.opts.folderFor?.(automationId) ?? this.opts.folder,
      runTimeoutMs: this.o.runTimeoutMs,
      leaseSeconds: this.o.leaseSeconds,
      directUploadPollMs: this.o.directUploadPollMs,
      directUploadTimeoutMs: this.o.directUploadTimeoutMs,
      secrets: this.opts.secrets ?? [],
      onStep: (e) => this.stepEmitter.fire(e),
      onLog: (e) => this.logEmitter.fire(e),
      requestSync: () => {
        this.syncWanted = true;
      },
      maxEventsPerRun: this.o.maxEventsPerRun,
      retryBaseMs: this.o.retryBaseMs,
    };
  }

  private automationFor(row: JournalRun): Automation | undefined {
    const live = this.automations.get(row.automation_id);
    if (live) return live;
    const saved = this.journal.automation(row.automation_id);
    if (!saved) return undefined;
    return JSON.parse(saved.data) as Automation;
  }

  private pump(): void {
    while (
      !this.paused &&
      !this.stopping &&
      this.inFlight.size < this.o.concurrency &&
      this.waiting.length > 0
    ) {
      const row = this.waiting.shift() as JournalRun;
      const fresh = this.journal.get(row.id);
      if (!fresh || (fresh.state !== 'queued' && fresh.state !== 'starting') || this.inFlight.has(row.id))
        continue;
      const a = this.automationFor(fresh);
      if (!a) {
        this.journal.update(fresh.id, {
          state: 'not_run',
          reason_code: 'automation_removed',
          reason: 'the automation is no longer known',
        });
        continue;
      }
      this.launch(fresh, a, (ctx) => this.runLocal(ctx));
    }
  }

  private launch(row: JournalRun, a: Automation, body: (ctx: RunContext) => Promise<RunOutcome>): void {
    const ctx = new RunContext(this.deps(), row, a);
    const entry = { ctx, done: Promise.resolve() };
    this.inFlight.set(row.id, entry);
    this.setState(this.settledState());
    entry.done = body(ctx)
      .then((outcome) => this.report(ctx, outcome))
      .catch((err: unknown) => this.note(`run ${row.id} crashed: ${errorFacts(err).message}`))
      .finally(() => {
        this.inFlight.delete(row.id);
        this.setState(this.settledState());
        this.pump();
      });
  }

  private report(ctx: RunContext, outcome: RunOutcome): void {
    const i = info(ctx.row);
    if (outcome.kind === 'completed') {
      this.note(`completed: ${i.automationName} run ${i.runId}`);
      this.finishEmitter.fire(i);
    } else if (outcome.kind === 'failed') {
      this.note(`failed: ${i.automationName} run ${i.runId} (${outcome.code}): ${outcome.message}`);
      this.failEmitter.fire({ ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else if (outcome.kind === 'not_run') {
      this.note(`not run: ${i.automationName} at ${i.scheduledFor} (${outcome.code}): ${outcome.message}`);
      this.missEmitter.fire({ ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else {
      this.note(`deferred: ${i.automationName} at ${i.scheduledFor}: ${outcome.message}`);
    }
  }

  private async runLocal(ctx: RunContext): Promise<RunOutcome> {
    const started = await startLocal(ctx, (id) => this.refresh(id));
    if (started) return started;
    this.startEmitter.fire(info(ctx.row));
    return executeStarted(ctx);
  }

  /** A claimed legacy run: the lease is renewed at a third of its length until the run ends. */
  private async runLegacy(
    ctx: RunContext,
    resumeWith?: Parameters<typeof executeStarted>[1],
  ): Promise<RunOutcome> {
    this.startEmitter.fire(info(ctx.row));
    const stopRenew = new AbortController();
    const renewing = this.renewLoop(ctx, stopRenew.signal);
    try {
      return await executeStarted(ctx, resumeWith);
    } finally {
      stopRenew.abort();
      await renewing;
    }
  }

  private async renewLoop(ctx: RunContext, signal: AbortSignal): Promise<void> {
    const everyMs = Math.max(1000, Math.floor((this.o.leaseSeconds * 1000) / 3));
    for (;;) {
      try {
        await this.clock.sleep(everyMs, signal);
      } catch {
        return;
      }
      try {
        const res = (await this.retry(
          () =>
            this.opts.api.renewClaim(ctx.runId as string, {
              claim_token: ctx.row.claim_token as string,
              lease_seconds: this.o.leaseSeconds,
            }),
          { attempts: 3, signal },
        )) as { run?: { lease_expires_at?: string | null } } | undefined;
        const until = res?.run?.lease_expires_at;
        ctx.patch({
          lease_expires_at:
            until ?? new Date(this.clock.now().getTime() + this.o.leaseSeconds * 1000).toISOString(),
        });
        ctx.step('lease', 'info', `lease renewed until ${ctx.row.lease_expires_at}`);
      } catch (err) {
        if (signal.aborted) return;
        const f = errorFacts(err);
        const expires = ctx.row.lease_expires_at ? Date.parse(ctx.row.lease_expires_at) : 0;
        if (f.status !== undefined && f.status < 500 ? true : this.clock.now().getTime() >= expires) {
          ctx.abort.abort(new CancelReason('lease_lost', `the legacy queue lease was lost: ${f.message}`));
          return;
        }
      }
    }
  }

  // ---- recovery ----------------------------------------------------------------------------------

  /** After a crash or restart: every run left active is looked up, then resumed or failed with the reason. */
  private async recover(): Promise<void> {
    const now = this.clock.now();
    for (const row of this.journal.unfinished()) {
      if (this.inFlight.has(row.id)) continue;
      if (!this.journal.adopt(row.id, isAlive)) continue;
      if (row.agent_pid !== null) killProcessGroup(row.agent_pid, 'SIGKILL');
      const a = this.automationFor(row);
      if (!a) {
        this.journal.update(row.id, {
          state: 'failed',
          reason_code: 'executor_restarted',
          reason: 'the automation is unknown after a restart',
        });
        continue;
      }
      const late = row.scheduled_for ? now.getTime() - Date.parse(row.scheduled_for) : 0;
      if (row.state === 'queued') {
        if (this.o.missedRunPolicy === 'all' || late <= this.o.graceMs) this.waiting.push(row);
        else
          this.journal.update(row.id, {
            state: 'not_run',
            reason_code: 'executor_offline',
            reason: 'the executor stopped before the run started and the occurrence is past the grace window',
          });
        continue;
      }
      if (row.state === 'starting' && !row.run_id) {
        this.waiting.push(row);
        continue;
      }
      this.launchResume(row, a, 'restart');
    }
  }

  private launchResume(row: JournalRun, a: Automation, why: 'restart' | 'retry'): void {
    const ctx = new RunContext(this.deps(), row, a);
    const entry = { ctx, done: Promise.resolve() };
    this.inFlight.set(row.id, entry);
    entry.done = this.resumeRun(ctx, why)
      .then((outcome) => this.report(ctx, outcome))
      .catch((err: unknown) =>
        this.note(`resuming ${row.id} failed (next pass tries again): ${errorFacts(err).message}`),
      )
      .finally(() => {
        this.inFlight.delete(row.id);
        this.setState(this.settledState());
        this.pump();
      });
  }

  /** Runs of this process that stopped because the service was unreachable: resumed where they stopped. */
  private resumeStalled(): void {
    const stalled = this.journal.list({
      states: ['agent_done', 'uploading', 'completing', 'failing'],
      limit: 1000,
    });
    for (const row of stalled) {
      if (this.inFlight.size >= this.o.concurrency) return;
      if (row.owner_pid !== process.pid || this.inFlight.has(row.id)) continue;
      const a = this.automationFor(row);
      if (a) this.launchResume(row, a, 'retry');
    }
  }

  private async resumeRun(ctx: RunContext, why: 'restart' | 'retry'): Promise<RunOutcome> {
    const row = ctx.row;
    const at = `${row.state}${row.step ? ` (${row.step})` : ''}`;
    ctx.step(
      'recover',
      'info',
      why === 'restart'
        ? `executor restarted; run was at ${at}`
        : `service reachable again; run was at ${at}`,
    );
    let run: Run | undefined;
    try {
      run = (await this.retry(() => this.opts.api.getRun(row.run_id as string, this.id))).run;
    } catch (err) {
      if (errorFacts(err).status === 404) {
        ctx.patch({
          state: 'failed',
          reason_code: 'executor_restarted',
          reason: 'the run is unknown to the service',
        });
        return { kind: 'failed', code: 'executor_restarted', message: 'the run is unknown to the service' };
      }
      throw err;
    }
    if (RUN_TERMINAL.includes(run.state)) {
      if (run.state === 'completed') {
        ctx.patch({ state: 'completed' });
        return { kind: 'completed' };
      }
      const message = `the service ended this run as ${run.state}${run.error ? `: ${run.error}` : ''}`;
      ctx.patch({ state: 'failed', reason_code: 'service_error', reason: message });
      return { kind: 'failed', code: 'service_error', message };
    }
    if (row.state === 'failing') {
      await failRun(
        ctx,
        new RunFailure((row.reason_code ?? 'service_error') as ReasonCode, row.reason ?? 'failed'),
      );
      return {
        kind: 'deferred',
        message: `failure ${ctx.row.state === 'failed' ? 'delivered' : 'still not delivered'}`,
      };
    }
    if (row.queue === 'legacy') {
      const leaseEnd = run.lease_expires_at ?? row.lease_expires_at;
      if (run.state !== 'claimed' || (leaseEnd && Date.parse(leaseEnd) <= this.clock.now().getTime())) {
        const message = 'the legacy queue lease expired while the executor was down';
        ctx.patch({ state: 'not_run', reason_code: 'lease_lost', reason: message });
        return { kind: 'not_run', code: 'lease_lost', message };
      }
    } else if (row.idempotency_key) {
      // Replaying the start with the same key returns the same run and a token for its uploads.
      try {
        const res = await this.retry(() =>
          this.opts.api.startRun(row.automation_id, {
            executor_id: this.id,
            revision: row.revision as number,
            idempotency_key: row.idempotency_key as string,
            ...(row.scheduled_for ? { scheduled_for: row.scheduled_for } : {}),
          }),
        );
        ctx.runToken = res.run_token;
      } catch (err) {
        this.note(`could not renew the run token of ${row.run_id}: ${errorFacts(err).message}`);
      }
    }
    let output;
    if (row.output) output = JSON.parse(row.output) as Parameters<typeof executeStarted>[1];
    else if (row.run_dir) {
      try {
        output = await readOutput(ctx);
      } catch {
        output = undefined;
      }
    }
    if (!output) {
      const failure = new RunFailure(
        'executor_restarted',
        `the executor stopped while the run was at ${row.step ?? row.state}${row.agent_pid ? ` (agent pid ${row.agent_pid})` : ''} and the agent left no valid output.json, so the run cannot be resumed`,
      );
      return failRun(ctx, failure);
    }
    ctx.step('recover', 'info', 'resuming at upload with the output the agent left');
    this.startEmitter.fire(info(ctx.row));
    return row.queue === 'legacy' ? this.runLegacy(ctx, output) : executeStarted(ctx, output);
  }

  // ---- the loop ----------------------------------------------------------------------------------

  private nextWake(now: Date): number {
    let next = now.getTime() + this.o.syncIntervalMs;
    for (const a of this.automations.values()) {
      if (a.queue !== 'local' || a.status !== 'active') continue;
      try {
        const n = nextOccurrence(a.schedule, now);
        if (n && n.getTime() < next) next = n.getTime();
      } catch {
        // An invalid schedule is reported by the pass.
      }
    }
    return next;
  }

  private async loop(): Promise<void> {
    this.loopPasses = 0;
    while (!this.stopping) {
      this.loopPasses += 1;
      try {
        await this.tick();
      } catch (err) {
        this.note(`pass failed: ${errorFacts(err).message}`);
      }
      if (this.stopping) break;
      if (this.syncWanted) continue;
      const now = this.clock.now();
      const wakeAt = this.nextWake(now);
      this.nextWakeAt = new Date(wakeAt).toISOString();
      this.wake = new AbortController();
      // Sleep in short slices and compare wall time: timers stand still while the machine sleeps.
      while (!this.stopping && !this.wake.signal.aborted) {
        const left = wakeAt - this.clock.now().getTime();
        if (left <= 0) break;
        const slice = Math.min(left, 30_000);
        const wallBefore = Date.now();
        try {
          await this.clock.sleep(slice, this.wake.signal);
        } catch {
          break;
        }
        if (this.clock === systemClock && Date.now() - wallBefore > slice + 30_000) {
          this.missedHint = { code: 'executor_offline', because: 'the computer was asleep' };
          break;
        }
      }
    }
  }
}
