import { errorText } from '../common/error-text';
import type { Logger } from '../common/logger';
import { retry } from '../common/retry';
import { EXECUTOR_DEFAULTS } from './config';
import { isTransient } from './ports';

/**
 * A started executor that could not register (the service unreachable, or its answer lost) tries again
 * with backoff and jitter until it is registered or stopped, rather than a sync interval later. A refusal
 * (a revoked key) is not retried: it is the caller's to report.
 */
export function registerUntilAnswered(o: {
  readonly register: () => Promise<unknown>;
  readonly retryBaseMs: number;
  readonly syncIntervalMs: number;
  readonly signal: AbortSignal;
  readonly stopping: () => boolean;
  readonly logger: Logger;
}): Promise<unknown> {
  return retry(() => o.register(), {
    attempts: Number.POSITIVE_INFINITY,
    minDelayMs: o.retryBaseMs,
    maxDelayMs: Math.min(EXECUTOR_DEFAULTS.registerMaxDelayMs, o.syncIntervalMs),
    signal: o.signal,
    shouldRetry: (err) => isTransient(err) && !o.stopping(),
    onRetry: (err, attempt) =>
      o.logger.warn(`registration try ${attempt} failed; trying again: ${errorText(err)}`),
  });
}
