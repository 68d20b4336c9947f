/**
 * The range the clock may show: from 1970 to before 9000. Every time derived from the clock (key
 * expiry a year on, retries, leases, upload addresses) then still has a four-digit year, so stored
 * ISO strings keep sorting as text and `Date` never becomes invalid.
 */
export const CLOCK_MIN_MS = 0;
export const CLOCK_MAX_MS = Date.UTC(9000, 0, 1);
const LIMIT_TEXT = `${new Date(CLOCK_MIN_MS).toISOString()} to before ${new Date(CLOCK_MAX_MS).toISOString()}`;

/** True when `ms` is a time the clock may show. */
export const isClockTime = (ms: number): boolean =>
  Number.isSafeInteger(ms) && ms >= CLOCK_MIN_MS && ms < CLOCK_MAX_MS;

/**
 * The sandbox's clock. It follows real time until it is set or advanced (or a fixture gives `now`);
 * from then on it is virtual and moves only through `/_sandbox/clock`. A move outside the clock's
 * range throws and changes nothing (nothing is persisted either).
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
    if (Number.isNaN(ms)) throw new RangeError('now: invalid date');
    if (!isClockTime(ms)) throw new RangeError(`now: must be from ${LIMIT_TEXT}`);
    if (ms < this.nowMs())
      throw new RangeError(`the clock cannot move backwards (now ${this.now().toISOString()})`);
    this.virtualMs = ms;
    this.onChange?.(this.virtualMs);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance_ms must be a non-negative number');
    const next = this.nowMs() + ms;
    if (!isClockTime(next)) {
      throw new RangeError(
        `advance_ms: must be at most ${CLOCK_MAX_MS - 1 - this.nowMs()} (the clock stays before ${new Date(CLOCK_MAX_MS).toISOString()})`,
      );
    }
    this.virtualMs = next;
    this.onChange?.(this.virtualMs);
  }

  /** Back to real time (reset without a fixture `now`), or pinned to `d` (reset with one). */
  reset(d?: Date): void {
    if (d && !isClockTime(d.getTime())) throw new RangeError(`now: must be from ${LIMIT_TEXT}`);
    this.virtualMs = d ? d.getTime() : null;
    this.onChange?.(this.virtualMs);
  }
}
