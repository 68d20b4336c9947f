import { setTimeout as delay } from 'node:timers/promises';
import { errorFacts, isTransient } from './ports';

export interface RetryOptions {
  readonly attempts?: number;
  readonly baseMs?: number;
  readonly maxMs?: number;
  readonly signal?: AbortSignal;
  /**
   * Repeat only faults that came with an answer (5xx, 429): for calls that are not idempotent, where a
   * lost answer may hide a change the service made.
   */
  readonly answeredOnly?: boolean;
}

/**
 * Repeats a call while it fails transiently (no answer, 5xx, 429). Real time on purpose: a dropped
 * connection heals in wall-clock time, whatever a virtual clock says.
 */
export async function retryTransient<T>(fn: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const attempts = o.attempts ?? 6;
  let wait = o.baseMs ?? 100;
  for (let i = 1; ; i += 1) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !isTransient(err) || o.signal?.aborted) throw err;
      if (o.answeredOnly && errorFacts(err).status === undefined) throw err;
      await delay(wait * (0.5 + Math.random()), undefined, { signal: o.signal });
      wait = Math.min(wait * 2, o.maxMs ?? 3000);
    }
  }
}
