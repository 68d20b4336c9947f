import { errorFacts } from './ports';
import { systemClock, type Clock } from './clock';
import type { Logger } from '../common/logger';

export interface PassLoopDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pass: () => Promise<void>;
  readonly stopping: () => boolean;
  /** Something asked for a pass while the last one ran: go again without sleeping. */
  readonly again: () => boolean;
  /** When the next pass is due, in ms since the epoch on the clock. */
  readonly nextWake: (now: Date) => number;
  /** The machine slept through a wait: what fell due meanwhile was missed because of it. */
  readonly slept: () => void;
}

/** Longest single wait: timers stand still while the machine sleeps, wall time does not. */
const SLICE_MS = 30_000;

/** Repeats passes on the clock: at each sync interval, at each occurrence, and when woken. */
export class PassLoop {
  private done: Promise<void> | null = null;
  private wakeUp = new AbortController();
  private passes_ = 0;
  private nextWakeAt_: string | null = null;

  constructor(private readonly d: PassLoopDeps) {}

  get running(): boolean {
    return this.done !== null;
  }

  /** Passes begun since the loop started. */
  get passes(): number {
    return this.passes_;
  }

  /** When the loop next wakes (null when it is not running). */
  get nextWakeAt(): string | null {
    return this.nextWakeAt_;
  }

  start(): void {
    if (this.done) return;
    this.done = this.loop();
  }

  /** Ends the current wait now. */
  wake(): void {
    this.wakeUp.abort();
  }

  /** Resolves when the loop has left (call once `stopping()` holds). */
  async ended(): Promise<void> {
    this.wake();
    await this.done?.catch((err: unknown) =>
      this.d.logger.error(`the pass loop failed: ${errorFacts(err).message}`),
    );
  }

  /** Forgets the ended loop, so that `start` begins a new one. */
  reset(): void {
    this.done = null;
    this.nextWakeAt_ = null;
  }

  private async loop(): Promise<void> {
    const { clock, logger } = this.d;
    this.passes_ = 0;
    while (!this.d.stopping()) {
      this.passes_ += 1;
      try {
        await this.d.pass();
      } catch (err) {
        logger.error(`pass failed: ${errorFacts(err).message}`);
      }
      if (this.d.stopping()) break;
      if (this.d.again()) continue;
      const wakeAt = this.d.nextWake(clock.now());
      this.nextWakeAt_ = new Date(wakeAt).toISOString();
      this.wakeUp = new AbortController();
      // Sleep in short slices and compare wall time: timers stand still while the machine sleeps.
      while (!this.d.stopping() && !this.wakeUp.signal.aborted) {
        const left = wakeAt - clock.now().getTime();
        if (left <= 0) break;
        const slice = Math.min(left, SLICE_MS);
        const wallBefore = Date.now();
        try {
          await clock.sleep(slice, this.wakeUp.signal);
        } catch {
          break; // woken
        }
        if (clock === systemClock && Date.now() - wallBefore > slice + SLICE_MS) {
          this.d.slept();
          break;
        }
      }
    }
  }
}
