import { errorText } from './error-text';
import type { Disposable } from './events';
import type { Logger } from './logger';

/** A check run on a timer and on demand, never two at once. */
export interface Poller<T> {
  /** Runs the check now, or joins the one already running. */
  checkNow(): Promise<T>;
  /** Checks at once and then every `intervalMs`; a failed tick is logged, and the next one tries again. */
  start(): Disposable;
  stop(): void;
}

export function createPoller<T>(o: {
  readonly check: () => Promise<T>;
  readonly intervalMs: number;
  readonly log: Logger;
  /** What the log line says failed, for a person reading the log. */
  readonly what: string;
}): Poller<T> {
  let checking: Promise<T> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const poller: Poller<T> = {
    // One check at a time: a timer tick and a click must not report the same thing twice.
    checkNow() {
      checking ??= o.check().finally(() => {
        checking = null;
      });
      return checking;
    },
    start() {
      const tick = () =>
        void poller
          .checkNow()
          .catch((error: unknown) => o.log.warn(`${o.what} failed`, { error: errorText(error) }));
      stop();
      timer = setInterval(tick, o.intervalMs);
      // The app quits without waiting for the next tick.
      timer.unref?.();
      tick();
      return { dispose: stop };
    },
    stop,
  };
  return poller;
}
