/**
 * The desktop app's executor slot. The core's Executor is bound to one service client; the desktop
 * switches clients (Connect, "Try offline", disconnect), so this host swaps executors and gives the
 * shell one stable ExecutorControl that follows whichever is current (or reports "stopped" when none).
 */
import type { Executor, RunFailedEvent } from '../core/executor';
import type { ActiveRun, ExecutorControl, FailedRun, Logger, MissedRun } from './capabilities';
import { DisposableStore, Emitter, type Disposable } from '../core/common/events';
import { errorText } from '../core/common/error-text';

/** The part of the core's Executor the shell uses. */
export type HostedExecutor = Pick<
  Executor,
  | 'start'
  | 'pause'
  | 'resume'
  | 'isPaused'
  | 'runMissed'
  | 'state'
  | 'activeRuns'
  | 'lastError'
  | 'stop'
  | 'failRun'
  | 'onDidChangeState'
  | 'onDidFailRun'
  | 'onDidMissRun'
>;

/** How long runs of the previous connection may go on when the connection changes. */
const SWITCH_GRACE_MS = 30_000;

export function failedRunOf(e: RunFailedEvent): FailedRun {
  return { runId: e.id, automationName: e.name, error: e.error };
}

export function missedRunOf(e: RunFailedEvent): MissedRun {
  return {
    automationId: e.automationId,
    automationName: e.name,
    scheduledFor: e.scheduledFor,
    // Only a run the service knows has a screen to open.
    runId: e.runId ? e.id : null,
    reason: e.message || null,
  };
}

export class ExecutorHost<E extends HostedExecutor = HostedExecutor> implements ExecutorControl, Disposable {
  private active: E | null = null;
  /** Swaps run one after another: a quick connect-disconnect must not leave two executors running. */
  private chain: Promise<void> = Promise.resolve();
  private readonly bound = new DisposableStore();
  private perExecutor = new DisposableStore();
  private pausedByUser = false;
  private stopped = false;
  private readonly changed = new Emitter<void>();
  private readonly failed = new Emitter<FailedRun>();
  private readonly missed = new Emitter<MissedRun>();
  private readonly switched = new Emitter<E | null>();
  readonly onDidChangeState = this.changed.event;
  /** The executor changed (the bridge forwards the new one's events). */
  readonly onDidSwitch = this.switched.event;
  readonly onDidFailRun = this.failed.event;
  readonly onDidMissRun = this.missed.event;

  constructor(private readonly log: Logger) {
    this.bound.add(this.changed);
    this.bound.add(this.failed);
    this.bound.add(this.missed);
    this.bound.add(this.switched);
  }

  /** The executor in use, if any (the bridge's executor port reads it). */
  current(): E | null {
    return this.active;
  }

  /** Replaces the executor: the old one stops (its runs get the grace period), the new one starts. */
  use(next: E | null): Promise<void> {
    this.chain = this.chain.then(() => this.swap(next));
    return this.chain;
  }

  private async swap(next: E | null): Promise<void> {
    const old = this.active;
    this.perExecutor.dispose();
    this.perExecutor = new DisposableStore();
    this.active = null;
    if (old) {
      await old
        .stop({ graceMs: SWITCH_GRACE_MS, reason: 'the connection changed' })
        .catch((e: unknown) =>
          this.log.error('stopping the previous executor failed', { error: errorText(e) }),
        );
    }
    if (next && !this.stopped) {
      this.active = next;
      this.perExecutor.add(next.onDidChangeState(() => this.changed.fire()));
      this.perExecutor.add(next.onDidFailRun((e) => this.failed.fire(failedRunOf(e))));
      this.perExecutor.add(next.onDidMissRun((e) => this.missed.fire(missedRunOf(e))));
      if (this.pausedByUser) next.pause();
      next.start();
    }
    this.switched.fire(this.active);
    this.changed.fire();
  }

  pause(): void {
    this.pausedByUser = true;
    this.active?.pause();
    this.changed.fire();
  }

  resume(): void {
    this.pausedByUser = false;
    this.active?.resume();
    this.changed.fire();
  }

  isPaused(): boolean {
    return this.active ? this.active.isPaused() : this.pausedByUser;
  }

  async runMissed(reason: 'sleep'): Promise<void> {
    await this.active?.runMissed(reason);
  }

  state(): ReturnType<ExecutorControl['state']> {
    if (!this.active) return this.pausedByUser ? 'paused' : 'stopped';
    return this.active.state();
  }

  activeRuns(): readonly ActiveRun[] {
    return (this.active?.activeRuns() ?? []).map((r) => ({ id: r.id, name: r.name }));
  }

  lastError(): string | null {
    return this.active?.lastError() ?? null;
  }

  async stop(opts: Readonly<{ graceMs: number; reason: string }>): Promise<void> {
    this.stopped = true;
    await this.active?.stop({ graceMs: opts.graceMs, reason: opts.reason });
  }

  async failRun(runId: string, reason: string): Promise<void> {
    await this.active?.failRun(runId, reason);
  }

  dispose(): void {
    this.perExecutor.dispose();
    this.bound.dispose();
  }
}
