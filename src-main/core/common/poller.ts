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
  /** Stops, and disposes what the owner gave it to hold (the emitters its checks fire). */
  dispose(): void;
}

/** How often a watch looks when its owner does not say: every two minutes. */
const DEFAULT_INTERVAL_MS = 2 * 60_000;

export function createPoller<T>(o: {
  readonly check: () => Promise<T>;
  readonly intervalMs?: number | undefined;
  readonly log: Logger;
  /** What the log line says failed, for a person reading the log. */
  readonly what: string;
  /** Disposed with the poller: the emitters the checks fire. */
  readonly owns?: readonly Disposable[];
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
      timer = setInterval(tick, o.intervalMs ?? DEFAULT_INTERVAL_MS);
      // The app quits without waiting for the next tick.
      timer.unref?.();
      tick();
      return { dispose: stop };
    },
    stop,
    dispose() {
      stop();
      for (const d of o.owns ?? []) d.dispose();
    },
  };
  return poller;
}
