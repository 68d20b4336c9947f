import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';

/**
 * Every wait that follows the service's notion of time (sync interval, occurrences, lease renewal) goes
 * through a Clock, so tests and the sandbox's virtual clock can drive 24 hours in seconds.
 */
export interface Clock {
  now(): Date;
  /** Resolves once `ms` have passed on this clock; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ManualClock extends Clock {
  set(date: Date): void;
  advance(ms: number): void;
}

interface Sleeper {
  until: number;
  resolve: () => void;
}

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted', 'AbortError');

/** Sleeps until a virtual time is reached; `wake` releases every sleeper whose time has come. */
class Sleepers {
  private readonly waiting = new Set<Sleeper>();

  add(until: number, signal: AbortSignal | undefined, currentNow: number): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (until <= currentNow) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        until,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiting.delete(sleeper);
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(sleeper);
    });
  }

  wake(now: number): void {
    for (const s of [...this.waiting]) {
      if (s.until <= now) {
        this.waiting.delete(s);
        s.resolve();
      }
    }
  }

  get size(): number {
    return this.waiting.size;
  }
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A clock that moves only when told: for tests that drive the executor pass by pass. */
export function createManualClock(start: Date): ManualClock {
  let now = start.getTime();
  const sleepers = new Sleepers();
  return {
    now: () => new Date(now),
    sleep: (ms, signal) => sleepers.add(now + ms, signal, now),
    set(date) {
      if (date.getTime() < now) throw new Error('a manual clock does not move backwards');
      now = date.getTime();
      sleepers.wake(now);
    },
    advance(ms) {
      now += ms;
      sleepers.wake(now);
    },
  };
}

export interface PolledClock extends Clock {
  /** Reads the source once; resolves when the first value is known. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * A clock that follows another one read over the wire, such as the sandbox's `GET /_sandbox/clock`.
 * It polls in real time, jittered; a failed read keeps the last known time.
 */
export function createPolledClock(
  read: () => Promise<Date>,
  pollMs = 100,
  logger: Logger = silentLogger,
): PolledClock {
  let now = Number.NaN;
  let timer: NodeJS.Timeout | undefined;
  const sleepers = new Sleepers();
  const poll = async () => {
    try {
      const t = (await read()).getTime();
      if (Number.isNaN(now) || t > now) now = t;
      sleepers.wake(now);
    } catch (err) {
      // The source may be restarting; the next poll tries again. Debug only: it repeats every poll.
      logger.debug(`the clock source could not be read: ${errorText(err)}`);
    }
  };
  return {
    now: () => new Date(Number.isNaN(now) ? Date.now() : now),
    sleep: (ms, signal) => {
      const base = Number.isNaN(now) ? Date.now() : now;
      return sleepers.add(base + ms, signal, base);
    },
    async start() {
      await poll();
      if (timer) return;
      // Jittered (0.5 to 1.5 of pollMs): the executors of a fleet, started together, do not poll in step.
      const loop = () => {
        const wait = pollMs * (0.5 + Math.random());
        timer = setTimeout(() => void poll().finally(() => timer && loop()), wait);
      };
      loop();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
