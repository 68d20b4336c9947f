/**
 * The sandbox's clock. It follows real time until it is set or advanced (or a fixture gives `now`);
 * from then on it is virtual and moves only through `/_sandbox/clock`.
 */
export class SandboxClock {
  private virtualMs: number | null = null;
  /** Told of every change, so a `--data` sandbox can keep its virtual time across restarts. */
  onChange: ((virtualMs: number | null) => void) | null = null;

  get isVirtual(): boolean {
    return this.virtualMs !== null;
  }

  now(): Date {
    return new Date(this.virtualMs ?? Date.now());
  }

  nowMs(): number {
    return this.virtualMs ?? Date.now();
  }

  /** Moves the clock to `d`; a move backwards throws and changes nothing. */
  set(d: Date): void {
    const ms = d.getTime();
    if (Number.isNaN(ms)) throw new RangeError('invalid date');
    if (ms < this.nowMs())
      throw new RangeError(`the clock cannot move backwards (now ${this.now().toISOString()})`);
    this.virtualMs = ms;
    this.onChange?.(this.virtualMs);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance_ms must be a non-negative number');
    this.virtualMs = this.nowMs() + ms;
    this.onChange?.(this.virtualMs);
  }

  /** Back to real time (reset without a fixture `now`), or pinned to `d` (reset with one). */
  reset(d?: Date): void {
    this.virtualMs = d ? d.getTime() : null;
    this.onChange?.(this.virtualMs);
  }
}
