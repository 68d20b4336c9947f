import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Whether this failure is worth another try; the default retries every failure. */
  readonly shouldRetry?: (error: unknown) => boolean;
  /** Called before each wait, for the log or a progress line; may wait longer itself (Retry-After). */
  readonly onRetry?: (error: unknown, triesLeft: number) => void | Promise<void>;
}

/**
 * The one retry loop of core: exponential backoff with full jitter, stopped by the signal, giving up with the last
 * error. Every caller states its policy; none writes its own loop.
 */
export function retry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  return pRetry(fn, {
    retries: Math.max(0, policy.attempts - 1),
    minTimeout: policy.minDelayMs,
    maxTimeout: policy.maxDelayMs,
    factor: 2,
    randomize: true,
    ...(policy.signal ? { signal: policy.signal } : {}),
    shouldRetry: ({ error }) => (policy.shouldRetry ? policy.shouldRetry(error) : true),
    onFailedAttempt: async ({ error, retriesLeft }) => {
      if (retriesLeft > 0 && policy.onRetry) await policy.onRetry(error, retriesLeft);
    },
  });
}
