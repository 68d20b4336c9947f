import type { Automation } from '../../../src-shared/api';
import type { Logger } from '../common/logger';
import type { Journal, JournalRun } from './journal';
import { errorFacts } from './ports';
import type { RunContext } from './run-context';
import type { CancelReason, RunOutcome } from './run-flow';

/** One run from its journal row to its outcome. */
export type RunBody = (ctx: RunContext) => Promise<RunOutcome>;

export interface RunPumpDeps {
  readonly journal: Journal;
  readonly logger: Logger;
  readonly concurrency: () => number;
  /** False while paused or stopping: queued runs wait. */
  readonly mayStart: () => boolean;
  readonly automationFor: (row: JournalRun) => Automation | undefined;
  readonly context: (row: JournalRun, a: Automation) => RunContext;
  /** What a queued local occurrence does once it has a slot. */
  readonly runQueued: RunBody;
  readonly report: (row: JournalRun, outcome: RunOutcome) => void;
  /** A run started or ended: the executor's state may have changed. */
  readonly onChange: () => void;
}

export interface LaunchOptions {
  /** Announce the change of state as the run starts (a resumed run is announced by the pass around it). */
  readonly announce: boolean;
  /** Logs a run whose body threw instead of returning an outcome. */
  readonly crashed: (message: string) => void;
}

interface InFlight {
  readonly ctx: RunContext;
  done: Promise<void>;
}

/**
 * The runs in flight and the queued occurrences waiting for a slot, at most `concurrency` at once.
 *
 * Not a p-limit pool, on purpose: a queued row is read again from the journal when its slot comes (it may
 * have been failed or expired meanwhile), nothing starts while the executor is paused or stopping, the limit
 * changes while runs are in flight, and the legacy queue claims a run only when a slot is free, so a
 * claimed lease never ticks in a queue.
 */
export class RunPump {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly waiting: JournalRun[] = [];

  constructor(private readonly d: RunPumpDeps) {}

  get active(): number {
    return this.inFlight.size;
  }

  activeIds(): string[] {
    return [...this.inFlight.keys()];
  }

  hasFreeSlot(): boolean {
    return this.inFlight.size < this.d.concurrency();
  }

  isActive(localId: string): boolean {
    return this.inFlight.has(localId);
  }

  isWaiting(localId: string): boolean {
    return this.waiting.some((w) => w.id === localId);
  }

  enqueue(row: JournalRun): void {
    this.waiting.push(row);
  }

  /** Starts queued runs while slots are free. */
  pump(): void {
    while (this.d.mayStart() && this.hasFreeSlot() && this.waiting.length > 0) {
      const row = this.waiting.shift() as JournalRun;
      const fresh = this.d.journal.get(row.id);
      if (!fresh || (fresh.state !== 'queued' && fresh.state !== 'starting') || this.inFlight.has(row.id))
        continue;
      const a = this.d.automationFor(fresh);
      if (!a) {
        this.d.journal.update(fresh.id, {
          state: 'not_run',
          reason_code: 'automation_removed',
          reason: 'the automation is no longer known',
        });
        continue;
      }
      this.launch(fresh, a, this.d.runQueued, {
        announce: true,
        crashed: (message) => this.d.logger.error(`run ${fresh.id} crashed: ${message}`),
      });
    }
  }

  /** Runs `body` for a row now, outside the queue; its slot frees when it ends. */
  launch(row: JournalRun, a: Automation, body: RunBody, o: LaunchOptions): void {
    const ctx = this.d.context(row, a);
    const entry: InFlight = { ctx, done: Promise.resolve() };
    this.inFlight.set(row.id, entry);
    if (o.announce) this.d.onChange();
    entry.done = body(ctx)
      .then((outcome) => this.d.report(ctx.row, outcome))
      .catch((err: unknown) => o.crashed(errorFacts(err).message))
      .finally(() => {
        ctx.closeLog();
        this.inFlight.delete(row.id);
        this.d.onChange();
        this.pump();
      });
  }

  /** Cancels one run in flight and waits for it to end; false when it is not in flight. */
  async cancel(localId: string, reason: CancelReason): Promise<boolean> {
    const live = this.inFlight.get(localId);
    if (!live) return false;
    live.ctx.abort.abort(reason);
    await live.done;
    return true;
  }

  /**
   * Lets the runs in flight finish within `graceMs` (real time), then cancels the rest with the reason
   * and waits for them to end.
   */
  async drain(graceMs: number, reason: () => CancelReason): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      this.settled().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (!expired) return;
    const why = reason();
    for (const f of this.inFlight.values()) f.ctx.abort.abort(why);
    await this.settled();
  }

  /** Resolves when every run now in flight has ended. */
  private async settled(): Promise<void> {
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  /** Resolves when no run is in flight or waiting for a slot. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || (this.waiting.length > 0 && this.d.mayStart())) {
      await this.settled();
      if (this.inFlight.size === 0 && this.waiting.length > 0) this.pump();
      if (this.inFlight.size === 0) break;
    }
  }
}
