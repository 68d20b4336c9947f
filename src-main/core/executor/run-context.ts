import type { Automation } from '../../../src-shared/api';
import { LIMITS } from '../../../src-shared/api';
import type { AgentRunner } from './agent-runner';
import type { Clock } from './clock';
import type { Journal, JournalRun, ReasonCode, RunPatch } from './journal';
import type { ExecutorMedia } from './media-port';
import { errorFacts, hasCode, transientRetrier, type ExecutorApi, type Retrier } from './ports';
import { redact, registerSecret } from '../api/redact';
import { errorText } from '../common/error-text';
import type { Logger } from '../common/logger';
import { RunLog, type LogLine, type LogStream, type RunLogWriter } from './run-log';
import type { StepStatus } from './step-line';

export type StepSource = 'executor' | 'agent';

export interface StepEvent {
  readonly localId: string;
  readonly runId: string | null;
  readonly automationId: string;
  readonly stepId: string;
  readonly status: StepStatus;
  readonly message: string;
  readonly source: StepSource;
  readonly at: string;
}

/** A line appended to a run's `run.log`, as the app sees it live (already redacted). */
export interface RunLogEvent extends LogLine {
  readonly localId: string;
  readonly runId: string | null;
  readonly automationId: string;
}

/** What a run needs from the executor around it. */
export interface RunDeps {
  readonly api: ExecutorApi;
  readonly media: ExecutorMedia;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly executorId: string;
  readonly runsDir: string;
  readonly agent: AgentRunner;
  /** The user's folder for an automation, from local settings only. */
  readonly folderFor: (automationId: string) => string | undefined;
  readonly runTimeoutMs: number;
  readonly leaseSeconds: number;
  readonly directUploadPollMs: number;
  readonly directUploadTimeoutMs: number;
  readonly secrets: readonly (string | undefined)[];
  readonly onStep: (e: StepEvent) => void;
  readonly onLog: (e: RunLogEvent) => void;
  /** Called when the service says the automation changed under a run (paused, removed, stale). */
  readonly requestSync: () => void;
  readonly maxEventsPerRun: number;
  /** How long a step's `started` event is held (real time) in case the step ends first. */
  readonly stepHoldMs: number;
  /** First backoff of the executor's own retries (real time). */
  readonly retryBaseMs: number;
  readonly logger: Logger;
}

/** Trims a message to the service's limit, keeping its start (which says what failed). */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A failure message as the service may be told it: every credential scrubbed, within its limit. */
export function failureText(message: string): string {
  return clip(redact(message), LIMITS.runFailureMessage);
}

/** A failure that ends the run with a reason the user can read. */
export class RunFailure extends Error {
  constructor(
    readonly code: ReasonCode,
    message: string,
    /** The service already ended the run; no `fail` call is needed. */
    readonly serviceDone = false,
  ) {
    super(message);
  }
}

/**
 * The service could not be reached for long enough that retrying now is pointless. The run stays where it
 * is (its output and upload progress in the journal) and a later pass resumes it.
 */
export class RunDeferred extends Error {}

type EventBody = Parameters<ExecutorApi['runEvent']>[1];

/** Per-run state and the ordered, best-effort stream of step events to the service. */
export class RunContext {
  private token: string | undefined;
  readonly abort = new AbortController();
  private events: Promise<void> = Promise.resolve();
  private sent = 0;
  /** `started` events held back, by step id (see `step`). */
  private readonly held = new Map<string, { timer: NodeJS.Timeout; at: string; body: EventBody }>();
  /** The service answered RUN_NOT_ACTIVE: someone else ended the run. */
  serviceInactive = false;
  private runLog: RunLog | null = null;
  /** run.log could not be opened (a link the agent planted there): said once, then lines go to the app only. */
  private logRefused = false;

  constructor(
    readonly deps: RunDeps,
    public row: JournalRun,
    public automation: Automation,
  ) {
    registerSecret(row.claim_token);
  }

  /** The run's token; remembered as a secret the moment it is known, so no log line can carry it. */
  get runToken(): string | undefined {
    return this.token;
  }

  set runToken(value: string | undefined) {
    registerSecret(value);
    this.token = value;
  }

  get localId(): string {
    return this.row.id;
  }

  get runId(): string | null {
    return this.row.run_id;
  }

  patch(p: RunPatch): JournalRun {
    this.row = this.deps.journal.update(this.row.id, p);
    return this.row;
  }

  /**
   * Scrubs the API key, this run's token and claim token (registered when the context learnt them), every
   * secret the API client has seen, and anything shaped like a credential.
   */
  safe(text: string): string {
    return redact(text);
  }

  /**
   * Opens the run's log by descriptor; the run folder must exist. Called before the agent starts, so the
   * descriptor is the executor's own whatever the agent later does to the name; a resumed run opens it again
   * without following a link.
   */
  openLog(): void {
    if (this.runLog || this.logRefused || !this.row.run_dir) return;
    try {
      this.runLog = RunLog.open(this.deps.runsDir, this.row.run_dir);
    } catch (err) {
      this.logRefused = true;
      this.deps.logger.warn(`run ${this.row.id}: its run.log is not written: ${errorText(err)}`);
    }
  }

  closeLog(): void {
    this.runLog?.close();
    this.runLog = null;
  }

  /** Where the agent's lines go: the same descriptor as the executor's. */
  readonly logWriter: RunLogWriter = {
    append: (stream: LogStream, text: string, at = new Date()) => this.writeLog(stream, text, at),
  };

  private writeLog(stream: LogStream, text: string, at: Date): void {
    this.openLog();
    try {
      this.runLog?.append(stream, text, at);
    } catch (err) {
      this.deps.logger.warn(`run ${this.row.id}: could not append to run.log: ${errorText(err)}`);
    }
  }

  async log(line: string): Promise<void> {
    if (!this.row.run_dir) return;
    const at = new Date();
    const text = this.safe(line);
    this.writeLog('system', text, at);
    this.logged({ at: at.toISOString(), stream: 'system', text });
  }

  /** Tells the app about a line appended to the run log; scrubbed again, since the app is not the file. */
  logged(line: LogLine): void {
    this.deps.onLog({
      localId: this.row.id,
      runId: this.row.run_id,
      automationId: this.row.automation_id,
      at: line.at,
      stream: line.stream,
      text: this.safe(line.text),
    });
  }

  /** Records a step locally, tells the app, and queues it for the service in order. */
  step(stepId: string, status: StepStatus, message = '', source: StepSource = 'executor'): void {
    const text = clip(this.safe(message), 2000);
    this.deps.journal.addStep(this.row.id, stepId, status, text || null, source);
    if (source === 'executor' && status === 'started') this.patch({ step: stepId });
    if (source === 'executor') void this.log(`step ${stepId} ${status}${text ? `: ${text}` : ''}`);
    this.deps.onStep({
      localId: this.row.id,
      runId: this.row.run_id,
      automationId: this.row.automation_id,
      stepId,
      status,
      message: text,
      source,
      at: this.deps.clock.now().toISOString(),
    });
    const runId = this.row.run_id;
    if (!runId || this.serviceInactive) return;
    const body: EventBody = {
      executor_id: this.deps.executorId,
      step_id: stepId,
      status,
      ...(text ? { message: text } : {}),
      ...(source === 'agent' ? { metadata: { source } } : {}),
    };
    // One request per step where the contract allows it: it records steps (a step id and a status) but
    // requires none, and no rule pairs a `started` with an end. A `started` waits `stepHoldMs`; a step that
    // ends within it is sent once, as its end, with when it started (and what its start said) in the
    // metadata. A step still running then is shown started, live, as before.
    const held = this.held.get(stepId);
    if (status === 'started') {
      if (held) this.release(stepId);
      const at = this.deps.clock.now().toISOString();
      const timer = setTimeout(() => this.release(stepId), this.deps.stepHoldMs);
      timer.unref();
      this.held.set(stepId, { timer, at, body });
      return;
    }
    if (held && (status === 'completed' || status === 'failed')) {
      clearTimeout(held.timer);
      this.held.delete(stepId);
      this.send(runId, {
        ...body,
        metadata: {
          ...body.metadata,
          started_at: held.at,
          ...(held.body.message ? { started_message: held.body.message } : {}),
        },
      });
      return;
    }
    // An `info` of a step shown as started: its start goes first, so the service's order stays the steps'.
    if (held) this.release(stepId);
    this.send(runId, body);
  }

  /** Sends a held `started` now. */
  private release(stepId: string): void {
    const held = this.held.get(stepId);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(stepId);
    const runId = this.row.run_id;
    if (runId && !this.serviceInactive) this.send(runId, held.body);
  }

  /** Queues one event for the service, in order, best effort. */
  private send(runId: string, body: EventBody): void {
    if (this.sent >= this.deps.maxEventsPerRun) return;
    this.sent += 1;
    const stepId = body.step_id;
    const status = body.status;
    this.events = this.events.then(async () => {
      if (this.serviceInactive) return;
      try {
        // answeredOnly: an event whose answer was lost may have been recorded; sending it again would double it.
        await this.retry(() => this.deps.api.runEvent(runId, body, this.runToken), {
          attempts: 4,
          answeredOnly: true,
        });
      } catch (err) {
        if (hasCode(err, 'RUN_NOT_ACTIVE')) this.serviceInactive = true;
        else {
          const line = `event ${stepId} ${status} not delivered: ${errorFacts(err).message}`;
          this.deps.logger.debug(`run ${runId}: ${line}`);
          void this.log(line);
        }
      }
    });
  }

  /**
   * The run ended on the service by this executor's own call (completed): what is still held is not sent,
   * and nothing more is, since the service would refuse it (RUN_NOT_ACTIVE) and the end is its record.
   */
  endedOnService(): void {
    this.serviceInactive = true;
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
  }

  /** Repeats a call that failed transiently, with the executor's backoff. */
  readonly retry: Retrier = transientRetrier(() => this.deps.retryBaseMs);

  /** Sends what is held, then waits until every queued step event has been sent (or given up on). */
  flush(): Promise<void> {
    for (const stepId of [...this.held.keys()]) this.release(stepId);
    return this.events;
  }

  failureText(message: string): string {
    return failureText(message);
  }
}
