/**
 * The service's "now", learned from the `Date` header of its answers (the sandbox's virtual clock included), so
 * "now" and "a minute ahead" follow the service that judges them, not this computer. A header has whole seconds:
 * the middle of its second is taken, and an offset under a second is noise (this computer's own clock is used).
 */
export interface ServiceClock {
  /** The service's time now: this computer's, moved by the last offset learned. */
  now(): Date;
  /** Whether an answer of the service has said its time yet. */
  known(): boolean;
  /** Takes the `Date` header of an answer received at `receivedAt` (this computer's ms). */
  learn(dateHeader: string | string[] | undefined, receivedAt: number): void;
}

export function createServiceClock(localNow: () => number = Date.now): ServiceClock {
  let offset: number | null = null;
  return {
    now: () => new Date(localNow() + (offset ?? 0)),
    known: () => offset !== null,
    learn(dateHeader, receivedAt) {
      const text = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
      const at = text ? Date.parse(text) : NaN;
      if (Number.isNaN(at)) return;
      const estimate = at - receivedAt;
      offset = Math.abs(estimate) < 1_000 ? 0 : estimate;
    },
  };
}
