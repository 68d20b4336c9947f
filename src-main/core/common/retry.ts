import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Whether this failure is worth another try; the default retries every failure. */
  readonly shouldRetry?: (error: unknown) => boolean;
  /**
   * Called once a failure is known to be tried again, before the wait, for the log or a progress line; may wait
   * longer itself (Retry-After). `attempt` is the try that just failed, counted from 1.
   */
  readonly onRetry?: (error: unknown, attempt: number) => void | Promise<void>;
}

/**
 * The one retry loop of core: exponential backoff with jitter, stopped by the signal, giving up with the last error.
 * Every caller states its policy; none writes its own loop. A TypeError other than a network one is a bug in the
 * caller, not a failure of the far side: p-retry never tries it again.
 */
export function retry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  return pRetry(fn, {
    retries: Math.max(0, policy.attempts - 1),
    minTimeout: policy.minDelayMs,
    maxTimeout: policy.maxDelayMs,
    factor: 2,
    randomize: true,
    ...(policy.signal ? { signal: policy.signal } : {}),
    // p-retry asks this only when tries are left; onFailedAttempt would run for the last failure too.
    shouldRetry: async ({ error, attemptNumber }) => {
      if (policy.shouldRetry && !policy.shouldRetry(error)) return false;
      await policy.onRetry?.(error, attemptNumber);
      return true;
    },
  });
}
