import { errorText } from '../common/error-text';
import { Emitter } from '../common/events';
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

/**
 * What the executor tells the app, and the log line beside each event. Listeners belong to the app: a
 * throwing one is logged and stops neither the executor nor the other listeners.
 */
export class ExecutorEvents {
  readonly state: Emitter<ExecutorStatus>;
  readonly started: Emitter<RunInfo>;
  readonly stepped: Emitter<StepEvent>;
  /** Every line appended to a run's `run.log` (executor steps, agent stdout/stderr), redacted. */
  readonly logged: Emitter<RunLogEvent>;
  readonly finished: Emitter<RunInfo>;
  readonly failed: Emitter<RunFailedEvent>;
  readonly missed: Emitter<RunFailedEvent>;

  constructor(private readonly logger: Logger) {
    const onListenerError = (err: unknown): void =>
      logger.error(`an executor event listener failed: ${errorText(err)}`);
    this.state = new Emitter(onListenerError);
    this.started = new Emitter(onListenerError);
    this.stepped = new Emitter(onListenerError);
    this.logged = new Emitter(onListenerError);
    this.finished = new Emitter(onListenerError);
    this.failed = new Emitter(onListenerError);
    this.missed = new Emitter(onListenerError);
  }

  /** How a run ended, to the log and the listeners. */
  report(row: JournalRun, outcome: RunOutcome): void {
    const i = runInfo(row);
    if (outcome.kind === 'completed') {
      this.logger.info(`completed: ${i.automationName} run ${i.runId}`);
      this.finished.fire(i);
    } else if (outcome.kind === 'failed') {
      this.logger.warn(`failed: ${i.automationName} run ${i.runId} (${outcome.code}): ${outcome.message}`);
      this.failed.fire({ ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else if (outcome.kind === 'not_run') {
      this.logger.info(
        `not run: ${i.automationName} at ${i.scheduledFor} (${outcome.code}): ${outcome.message}`,
      );
      this.missed.fire({ ...i, code: outcome.code, message: outcome.message, error: outcome.message });
    } else {
      this.logger.info(`deferred: ${i.automationName} at ${i.scheduledFor}: ${outcome.message}`);
    }
  }

  /** An occurrence the planner decided not to run, recorded with its reason. */
  notRun(row: JournalRun, automationName: string): void {
    this.logger.info(`not run: ${automationName} at ${row.scheduled_for}: ${row.reason}`);
    this.missed.fire({
      ...runInfo(row),
      code: row.reason_code as ReasonCode,
      message: row.reason ?? '',
      error: row.reason ?? '',
    });
  }
}
