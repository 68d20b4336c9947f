import { errorText } from '../common/error-text';
import { Emitter, type Disposable, type Event } from '../common/events';
import type { Logger } from '../common/logger';
import type { JournalRun, ReasonCode } from './journal';
import type { RunLogEvent, StepEvent } from './run-context';
import type { RunOutcome } from './run-flow';

/**
 * `registering`: not yet known to the service, trying again with backoff until it answers. `stopping`: shutting
 * down, or draining (finishing its runs, starting no more).
 */
export const EXECUTOR_STATES = [
  'stopped',
  'registering',
  'idle',
  'running',
  'paused',
  'offline',
  'stopping',
] as const;
export type ExecutorState = (typeof EXECUTOR_STATES)[number];

export interface ExecutorStatus {
  readonly state: ExecutorState;
  readonly executorId: string | null;
  readonly lastSyncAt: string | null;
  readonly lastError: string | null;
  readonly activeRuns: number;
  readonly automations: number;
}

export interface RunInfo {
  /** The service's run id once known, else the local id: what the tray and notifications show. */
  readonly id: string;
  /** The automation's name (its id when the name is unknown). */
  readonly name: string;
  readonly localId: string;
  readonly runId: string | null;
  readonly automationId: string;
  readonly automationName: string | null;
  readonly scheduledFor: string | null;
  readonly queue: 'local' | 'legacy';
  readonly state: JournalRun['state'];
  readonly step: string | null;
}

export interface RunFailedEvent extends RunInfo {
  readonly code: ReasonCode;
  readonly message: string;
  /** The same as `message`: what the service was told, at most 1,000 characters. */
  readonly error: string;
}

export const runInfo = (row: JournalRun): RunInfo => ({
  id: row.run_id ?? row.id,
  name: row.automation_name ?? row.automation_id,
  localId: row.id,
  runId: row.run_id,
  automationId: row.automation_id,
  automationName: row.automation_name,
  scheduledFor: row.scheduled_for,
  queue: row.queue,
  state: row.state,
  step: row.step,
});

/** Marks what an event carries: a type for the compiler, nothing at run time. */
const carries = <T>(): T => undefined as T;

/**
 * The executor's events, declared once: each row names its emitter, the listener getter an `Executor` offers
 * (`executor.onDidStartRun(…)`) and what it carries. The emitters, the getters and the forwarding onto the bridge
 * (core/bridge/executor-port.ts) are derived from it, so a new row reaches all three
 * (test/unit/core/executor/executor-events.test.ts).
 */
export const EXECUTOR_EVENTS = {
  state: { listener: 'onDidChangeState', carries: carries<ExecutorStatus>() },
  started: { listener: 'onDidStartRun', carries: carries<RunInfo>() },
  stepped: { listener: 'onDidStepRun', carries: carries<StepEvent>() },
  /** Every line appended to a run's `run.log` (executor steps, agent stdout/stderr), redacted. */
  logged: { listener: 'onDidLogRun', carries: carries<RunLogEvent>() },
  finished: { listener: 'onDidFinishRun', carries: carries<RunInfo>() },
  failed: { listener: 'onDidFailRun', carries: carries<RunFailedEvent>() },
  missed: { listener: 'onDidMissRun', carries: carries<RunFailedEvent>() },
} as const;

type Table = typeof EXECUTOR_EVENTS;
export type ExecutorEventName = keyof Table;
export type ExecutorEventPayload<K extends ExecutorEventName> = Table[K]['carries'];
/** The getters of every event, by their listener names: what an `Executor` offers. */
export type ExecutorListeners = {
  readonly [K in ExecutorEventName as Table[K]['listener']]: Event<ExecutorEventPayload<K>>;
};
/** One handler per event: a table that must name every row (the bridge's forwarding). */
export type ExecutorEventHandlers = {
  readonly [K in ExecutorEventName]: (payload: ExecutorEventPayload<K>) => void;
};

/** The table's rows, read at each use. */
const eventNames = (): ExecutorEventName[] => Object.keys(EXECUTOR_EVENTS) as ExecutorEventName[];

/** Subscribes one handler per event of `source`; disposing the answer ends them all. */
export function subscribeExecutorEvents(
  source: ExecutorListeners,
  handlers: ExecutorEventHandlers,
): Disposable {
  const subs = eventNames().map((name) =>
    (source[EXECUTOR_EVENTS[name].listener] as Event<unknown>)(handlers[name] as (payload: unknown) => void),
  );
  return { dispose: () => subs.forEach((s) => s.dispose()) };
}

/**
 * What the executor tells the app, and the log line beside each event. Listeners belong to the app: a
 * throwing one is logged and stops neither the executor nor the other listeners.
 */
export class ExecutorEvents {
  private readonly emitters: { readonly [K in ExecutorEventName]: Emitter<ExecutorEventPayload<K>> };

  constructor(private readonly logger: Logger) {
    const onListenerError = (err: unknown): void =>
      logger.error(`an executor event listener failed: ${errorText(err)}`);
    this.emitters = Object.fromEntries(
      eventNames().map((name) => [name, new Emitter(onListenerError)]),
    ) as unknown as ExecutorEvents['emitters'];
  }

  fire<K extends ExecutorEventName>(name: K, payload: ExecutorEventPayload<K>): void {
    this.emitters[name].fire(payload);
  }

  /** Every getter of the table, by its listener name (an `Executor` takes them as its own). */
  listeners(): ExecutorListeners {
    return Object.fromEntries(
      eventNames().map((name) => [EXECUTOR_EVENTS[name].listener, this.emitters[name].event]),
    ) as unknown as ExecutorListeners;
  }

  /** How a run ended, to the log and the listeners. */
  report(row: JournalRun, outcome: RunOutcome): void {
    const i = runInfo(row);
    if (outcome.kind === 'completed') {
      this.logger.info(`completed: ${i.automationName} run ${i.runId}`);
      this.fire('finished', i);
    } else if (outcome.kind === 'failed') {
      this.logger.warn(`failed: ${i.automationName} run ${i.runId} (${outcome.code}): ${outcome.message}`);
      this.fire('failed', { ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else if (outcome.kind === 'not_run') {
      this.logger.info(
        `not run: ${i.automationName} at ${i.scheduledFor} (${outcome.code}): ${outcome.message}`,
      );
      this.fire('missed', { ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else {
      this.logger.info(`deferred: ${i.automationName} at ${i.scheduledFor}: ${outcome.message}`);
    }
  }

  /** An occurrence the planner decided not to run, recorded with its reason. */
  notRun(row: JournalRun, automationName: string): void {
    this.logger.info(`not run: ${automationName} at ${row.scheduled_for}: ${row.reason}`);
    this.fire('missed', {
      ...runInfo(row),
      code: row.reason_code as ReasonCode,
      message: row.reason ?? '',
      error: row.reason ?? '',
    });
  }
}
