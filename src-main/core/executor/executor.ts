import type { Automation } from '../../../src-shared/api';
import { registerSecret } from '../api/redact';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { AgentRunner } from './agent-runner';
import { systemClock, type Clock } from './clock';
import {
  agentRunnerOf,
  EXECUTOR_DEFAULTS,
  tuningOf,
  type ExecutorConfig,
  type ExecutorSettings,
  type Tuning,
} from './config';
import {
  ExecutorEvents,
  runInfo,
  type ExecutorListeners,
  type ExecutorState,
  type ExecutorStatus,
  type RunInfo,
} from './executor-events';
import { Journal, type JournalRun } from './journal';
import { LegacyQueue } from './legacy-queue';
import { createCoreMedia } from './media-core';
import type { ExecutorMedia } from './media-port';
import { nextOccurrence } from './occurrences';
import { missedContext, nextWake, type MissedContext } from './occurrence-planner';
import { PassLoop } from './pass-loop';
import { errorFacts, isTransient, transientRetrier } from './ports';
import { Recovery } from './recovery';
import { RunContext } from './run-context';
import { CancelReason, executeStarted, startLocal, type RunOutcome } from './run-flow';
import { RunPump } from './run-pump';
import { queueRunNow } from './run-now';
import { pruneOnSchedule } from './retention';
import { registerUntilAnswered } from './register-retry';
import { runDepsOf } from './run-deps';
import { recordPlan } from './record-plan';
import {
  activeRunInfos,
  statusOf,
  settledState,
  shownState,
  soonestLocalOccurrence,
  stopCancelText,
} from './executor-status';
import { spreadKey } from './spread';
import { AutomationSync } from './sync';

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the listener getters (onDidStartRun, …) are derived from EXECUTOR_EVENTS and assigned in the constructor
export interface Executor extends ExecutorListeners {}

/**
 * The embedded executor. One pass (`tick`) registers once, syncs, acks new revisions, decides every
 * occurrence since the last pass (run, or not run with a reason), claims legacy runs, and starts runs
 * within the concurrency limit. `start()` repeats passes on the clock; `runOnce()` is one pass, awaited.
 *
 * This class only wires the parts together and holds the state they share (paused, stopping, the pass in
 * progress): `sync` talks automations with the service, `occurrence-planner` decides, `run-pump` runs,
 * `legacy-queue` claims and renews, `recovery` resumes, `pass-loop` keeps time; `executor-status` and the
 * small helpers beside it (`run-deps`, `run-now`, `record-plan`, `register-retry`, `retention`) hold the rest.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Executor {
  readonly journal: Journal;
  private readonly tuning: Tuning;
  private readonly clock: Clock;
  private readonly media: ExecutorMedia;
  private readonly logger: Logger;
  private readonly events: ExecutorEvents;
  private readonly sync: AutomationSync;
  private readonly pump: RunPump;
  private readonly legacy: LegacyQueue;
  private readonly recovery: Recovery;
  private readonly loop: PassLoop;
  private agent: AgentRunner;
  private passing: Promise<void> | null = null;
  private initialized: Promise<void> | null = null;
  private current: ExecutorState = 'stopped';
  private paused = false;
  private stopping = false;
  /** Asked to drain: finishes the runs in flight and starts no more, but keeps syncing until stopped. */
  private draining = false;
  private syncWanted = false;
  private pruning: { stop(): void } | null = null;
  private missedHint: MissedContext | null = null;
  /** The instant the pass in progress (or the last one) planned occurrences up to; null when it did not. */
  private plannedUpTo: Date | null = null;
  /** Ends the registration retries of a started executor when it stops. */
  private registerAbort = new AbortController();
  private registering = false;
  /** Between `start()` and `stop()`; the loop's own flag is set only once its first pass is under way. */
  private started = false;

  constructor(private readonly config: ExecutorConfig) {
    this.tuning = tuningOf(config);
    this.clock = config.clock ?? systemClock;
    this.logger = config.logger ?? silentLogger;
    // Registered once, scrubbed everywhere: run logs, step messages, failure texts and this log.
    for (const secret of config.secrets ?? []) registerSecret(secret);
    this.media = config.media ?? createCoreMedia();
    this.journal = new Journal(config.store, config.scope, () => this.clock.now().toISOString());
    this.agent = agentRunnerOf(config.agentType, config.agent, config.confinement);

    this.events = new ExecutorEvents(this.logger);
    Object.assign(this, this.events.listeners());

    const common = {
      api: config.api,
      journal: this.journal,
      clock: this.clock,
      logger: this.logger,
      retry: transientRetrier(() => this.tuning.retryBaseMs),
    };
    const started = (ctx: RunContext) => this.events.fire('started', runInfo(ctx.row));
    this.sync = new AutomationSync({
      ...common,
      name: config.name,
      agentType: config.agentType,
      deviceLabel: config.deviceLabel,
      capabilities: config.capabilities,
      concurrency: () => this.tuning.concurrency,
      onOffline: () => this.setState(this.registering ? 'registering' : 'offline'),
      requestSync: () => {
        this.syncWanted = true;
      },
    });
    this.pump = new RunPump({
      journal: this.journal,
      logger: this.logger,
      concurrency: () => this.tuning.concurrency,
      mayStart: () => !this.paused && !this.stopping && !this.draining,
      automationFor: (row) => this.sync.automationFor(row),
      context: (row, a) => this.context(row, a),
      runQueued: (ctx) => this.runLocal(ctx),
      report: (row, outcome) => this.events.report(row, outcome),
      onChange: () => this.setState(this.settledState()),
    });
    this.legacy = new LegacyQueue({
      ...common,
      pump: this.pump,
      leaseSeconds: () => this.tuning.leaseSeconds,
      mayClaim: () => !this.stopping && !this.draining && !this.paused,
      started,
    });
    this.recovery = new Recovery({
      ...common,
      tuning: this.tuning,
      pump: this.pump,
      legacy: this.legacy,
      executorId: () => this.sync.id,
      automationFor: (row) => this.sync.automationFor(row),
      started,
    });
    this.loop = new PassLoop({
      clock: this.clock,
      logger: this.logger,
      pass: () => this.tick(),
      stopping: () => this.stopping,
      again: () => this.syncWanted,
      nextWake: (now) =>
        nextWake(this.sync.automations.values(), now, this.tuning.syncIntervalMs, this.plannedUpTo ?? now),
      slept: () => {
        this.missedHint = { code: 'executor_offline', because: 'the computer was asleep' };
      },
    });
  }

  /**
   * Applies changed settings in place: later passes and runs use them, running runs finish as they began.
   * The agent type is the executor's identity with the service, so changing it needs a new executor.
   */
  configure(c: Readonly<ExecutorSettings>): void {
    if (c.concurrency !== undefined) this.tuning.concurrency = Math.max(1, c.concurrency);
    if (c.missedRunPolicy !== undefined) this.tuning.missedRunPolicy = c.missedRunPolicy;
    if (c.graceMs !== undefined) this.tuning.graceMs = c.graceMs;
    if ('agent' in c) this.agent = agentRunnerOf(this.config.agentType, c.agent, this.config.confinement);
    // A higher limit may let queued runs start now rather than at the next pass.
    this.pump.pump();
  }

  /** The settings `configure` can change, as they are now. */
  settings(): Required<Omit<ExecutorSettings, 'agent'>> {
    return {
      concurrency: this.tuning.concurrency,
      missedRunPolicy: this.tuning.missedRunPolicy,
      graceMs: this.tuning.graceMs,
    };
  }

  // ---- reading ----------------------------------------------------------------------------------

  get name(): string {
    return this.config.name;
  }

  get agentType(): string {
    return this.config.agentType;
  }

  /** The automations of the last good sync, any status and queue (callers pick what they need). */
  automations(): readonly Automation[] {
    return [...this.sync.automations.values()];
  }

  status(): ExecutorStatus {
    return statusOf(this.current, this.sync, this.pump.active);
  }

  /** The states the app shows: offline counts as idle (see `lastError()`), stopping as running. */
  state(): 'stopped' | 'registering' | 'idle' | 'running' | 'paused' {
    return shownState(this.current, this.pump.active);
  }

  isPaused(): boolean {
    return this.paused;
  }

  lastError(): string | null {
    return this.sync.lastError;
  }

  /** When the loop next wakes for a sync or an occurrence (null when not started). */
  nextSyncAt(): string | null {
    return this.loop.nextWakeAt;
  }

  /** The next occurrence of an automation's schedule, as this executor computes it. */
  nextOccurrence(a: Pick<Automation, 'schedule'>): string | null {
    return nextOccurrence(a.schedule, this.clock.now())?.toISOString() ?? null;
  }

  /**
   * The soonest next occurrence among the active local automations of the last sync (null before one, or with
   * none): what `postdesk executor status` shows.
   */
  nextOccurrenceAt(): string | null {
    return soonestLocalOccurrence(this.sync.automations.values(), this.clock.now());
  }

  activeRuns(): RunInfo[] {
    return activeRunInfos(this.pump, this.journal);
  }

  // ---- control ----------------------------------------------------------------------------------

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
          if (isTransient(err)) {
            this.logger.warn(
              `could not reach the service to register; the next pass tries again: ${errorText(err)}`,
            );
            return;
          }
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
  idle(): Promise<void> {
    return this.pump.idle();
  }

  /** Runs passes on the clock until `stop()`: at each sync interval, at each occurrence, and on demand. */
  start(): void {
    if (this.loop.running) return;
    this.stopping = false;
    this.registerAbort = new AbortController();
    this.started = true;
    this.loop.start();
    this.pruning = pruneOnSchedule(this.config, this.journal, this.clock, this.logger);
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
    this.setState(this.draining ? 'stopping' : this.pump.active > 0 ? 'running' : 'idle');
    this.pump.pump();
    this.syncNow();
  }

  /** Asks the loop for a pass now (or runs one when no loop is started). */
  syncNow(): void {
    this.syncWanted = true;
    if (this.loop.running) this.loop.wake();
    else
      void this.tick().catch((err: unknown) => this.logger.warn(`sync failed: ${errorFacts(err).message}`));
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
    // Only waits for the pass in progress; whoever started it hears how it ended.
    await this.passing?.catch(() => undefined);
    if (this.missedHint === hint) await this.tick();
  }

  /** Starts one run of an automation now, outside its schedule (idempotency key with the current time). */
  async runNow(automationId: string): Promise<RunInfo> {
    // Queued, it would never start: a draining executor starts no run (see `drain`).
    if (this.draining)
      throw new Error('this executor is draining: it finishes its runs and starts no new one');
    await this.init();
    const { sync, journal, pump, clock } = this;
    return queueRunNow({ sync, journal, pump, clock }, automationId);
  }

  /**
   * Fails a run with this reason: a run in progress is cancelled (its process tree killed) and fails
   * with it; one left unfinished in the journal is failed on the service.
   */
  async failRun(id: string, reason: string): Promise<void> {
    const row = this.journal.find(id);
    if (!row) throw new Error(`no run ${id} in the journal`);
    if (await this.pump.cancel(row.id, new CancelReason('agent_cancelled', reason))) return;
    await this.recovery.abandon(row, reason, this.sync.executorId);
  }

  /**
   * For a fleet: finishes the runs in flight and starts no more, neither planned occurrences nor legacy
   * claims. The loop goes on syncing (the service still sees the executor, `/healthz` stays green), and the
   * occurrences it leaves are started by the other executors, whose idempotent starts find them free. Shown
   * as `stopping` until `stop()`; answers how many runs it is still waiting on.
   */
  drain(): { activeRuns: number } {
    if (!this.draining) {
      this.draining = true;
      this.logger.info('draining: running runs finish, no new run starts here');
      this.setState(this.settledState());
    }
    return { activeRuns: this.pump.active };
  }

  isDraining(): boolean {
    return this.draining;
  }

  /**
   * Stops starting runs, lets running ones finish within `graceMs` (real time), then cancels the rest:
   * their process trees are killed and the runs fail with the reason.
   */
  async stop(o: { graceMs?: number; reason?: string } = {}): Promise<void> {
    const graceMs = o.graceMs ?? EXECUTOR_DEFAULTS.stopGraceMs;
    this.stopping = true;
    this.setState('stopping');
    this.started = false;
    this.registerAbort.abort(new Error('the executor stopped'));
    this.pruning?.stop();
    this.pruning = null;
    await this.loop.ended();
    // Only waits for the pass in progress; whoever started it hears how it ended.
    await this.passing?.catch(() => undefined);
    await this.pump.drain(
      graceMs,
      () => new CancelReason('executor_stopped', stopCancelText(graceMs, o.reason)),
    );
    this.loop.reset();
    this.setState('stopped');
  }

  // ---- one pass ---------------------------------------------------------------------------------

  private setState(state: ExecutorState): void {
    if (this.current === state) return;
    this.current = state;
    this.events.fire('state', this.status());
  }

  private settledState(): ExecutorState {
    return settledState({
      stopping: this.stopping || this.draining,
      paused: this.paused,
      registering: this.registering,
      syncFailures: this.sync.failures,
      activeRuns: this.pump.active,
    });
  }

  private init(): Promise<void> {
    this.initialized ??= (async () => {
      if (this.started && !this.sync.executorId) await this.registerUntilAnswered();
      else await this.sync.register();
      await this.recovery.afterRestart();
    })().catch((err: unknown) => {
      this.initialized = null;
      throw err;
    });
    return this.initialized;
  }

  /** Shown as `registering` while it tries; see `registerUntilAnswered` for when it stops trying. */
  private async registerUntilAnswered(): Promise<void> {
    this.registering = true;
    this.setState('registering');
    try {
      await registerUntilAnswered({
        register: () => this.sync.register(),
        retryBaseMs: this.tuning.retryBaseMs,
        syncIntervalMs: this.tuning.syncIntervalMs,
        signal: this.registerAbort.signal,
        stopping: () => this.stopping,
        logger: this.logger,
      });
    } finally {
      this.registering = false;
    }
  }

  private async pass(now: Date): Promise<void> {
    const asked = this.syncWanted;
    this.syncWanted = false;
    this.plannedUpTo = null;
    // Woken for due occurrences with a fresh list: start them first, sync after. At a busy minute every
    // executor of a fleet wakes at once, and a sync first (the whole list, on every executor) put its
    // round trip and the service's work for it in front of every start. A change the list missed meanwhile
    // is answered by the start itself (paused, removed, stale: recorded with that reason, and re-synced).
    const early = !asked && this.mayPlan() && this.listIsFresh(now);
    const missed = early ? this.takeMissed() : null;
    if (missed) {
      this.planAll(this.sync.automations, now, missed);
      this.plannedUpTo = now;
      this.pump.pump();
    }
    const list = await this.sync.fetch();
    if (!list) return;
    const seen = await this.sync.accept(list);
    if (this.stopping) return;
    // Left unplanned, not recorded as not run: another executor starts them (see `drain`).
    if (this.draining) {
      this.setState(this.settledState());
      return;
    }
    if (this.paused) {
      this.setState('paused');
      return;
    }
    const context = missed ?? this.takeMissed();
    this.planAll(seen, now, context);
    this.plannedUpTo = now;
    this.recovery.requeueDeferred();
    this.recovery.resumeStalled();
    this.pump.pump();
    for (const a of seen.values()) {
      if (a.queue === 'legacy' && a.status === 'active') await this.legacy.claim(a);
    }
    this.catchUp(seen, now, context);
    this.setState(this.settledState());
  }

  private mayPlan(): boolean {
    return !this.stopping && !this.draining && !this.paused && this.sync.automations.size > 0;
  }

  /**
   * The last good sync is at most one sync interval old: its list may plan this pass's occurrences. At most,
   * not under: on a clock that stands still between minutes (the sandbox's), the minute's sync is exactly one
   * interval old at the next minute, and every pass of a fleet synced first again.
   */
  private listIsFresh(now: Date): boolean {
    const at = this.sync.lastSyncAt;
    return at !== null && now.getTime() - Date.parse(at) <= this.tuning.syncIntervalMs;
  }

  private takeMissed(): MissedContext {
    const missed = missedContext(this.missedHint, this.loop);
    this.missedHint = null;
    return missed;
  }

  /**
   * Plans the local automations in an order of this executor's own (a hash of its id and the automation's):
   * the executors of a fleet, woken by the same minute, then ask to start different occurrences first, rather
   * than all racing for the same one while the rest wait.
   */
  private planAll(
    automations: ReadonlyMap<string, Automation>,
    now: Date,
    missed: MissedContext,
    busySince?: Date,
  ): void {
    const salt = this.sync.executorId ?? this.config.name;
    const local = [...automations.values()].filter((a) => a.queue === 'local');
    const keyed = local.map((a) => ({ a, k: spreadKey(salt, a.id) })).sort((x, y) => x.k - y.k);
    for (const { a } of keyed) {
      this.plan(a, now, missed, busySince);
      // Its runs start now, while the rest is planned: on a busy machine planning hundreds takes a while.
      this.pump.pump();
    }
  }

  /**
   * A slow pass (a slow sync, acks, claims) must not delay what fell due while it ran: plans again up to the
   * clock's now with the automations just synced, no second sync, and those occurrences are on time
   * however long the pass took, since the executor was at work, not away.
   */
  private catchUp(seen: ReadonlyMap<string, Automation>, since: Date, missed: MissedContext): void {
    if (this.stopping || this.draining || this.paused) return;
    const end = this.clock.now();
    if (end.getTime() <= since.getTime()) return;
    this.planAll(seen, end, missed, since);
    this.plannedUpTo = end;
    this.pump.pump();
  }

  private plan(a: Automation, now: Date, missed: MissedContext, busySince?: Date): void {
    const { journal, pump, events, logger, tuning } = this;
    recordPlan({ journal, pump, events, logger, tuning }, a, now, missed, busySince);
  }

  private context(row: JournalRun, a: Automation): RunContext {
    const deps = runDepsOf(this.config, this.tuning, a, {
      media: this.media,
      journal: this.journal,
      clock: this.clock,
      executorId: this.sync.id,
      agent: this.agent,
      onStep: (e) => this.events.fire('stepped', e),
      onLog: (e) => this.events.fire('logged', e),
      requestSync: () => {
        this.syncWanted = true;
      },
      logger: this.logger,
    });
    return new RunContext(deps, row, a);
  }

  private async runLocal(ctx: RunContext): Promise<RunOutcome> {
    const started = await startLocal(ctx, (id) => this.sync.refresh(id));
    if (started) return started;
    this.events.fire('started', runInfo(ctx.row));
    return executeStarted(ctx);
  }
}
