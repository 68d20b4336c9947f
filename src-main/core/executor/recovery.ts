import type { Automation, Run } from '../../../src-shared/api';
import { errorText } from '../common/error-text';
import type { Logger } from '../common/logger';
import { isProcessAlive } from '../common/process-alive';
import type { AgentOutput } from './agent-output';
import { killProcessGroup } from './agent-process';
import type { Clock } from './clock';
import type { Tuning } from './config';
import type { LegacyQueue } from './legacy-queue';
import { TERMINAL_PHASES, type Journal, type JournalRun, type ReasonCode } from './journal';
import { afterRestart } from './occurrence-planner';
import { errorFacts, hasCode, type ExecutorApi, type Retrier } from './ports';
import { failureText, RunFailure, type RunContext } from './run-context';
import { executeStarted, failRun, readOutput, type RunOutcome } from './run-flow';
import type { RunPump } from './run-pump';

export interface RecoveryDeps {
  readonly api: ExecutorApi;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: Retrier;
  readonly tuning: Readonly<Pick<Tuning, 'missedRunPolicy' | 'graceMs' | 'concurrency'>>;
  readonly pump: RunPump;
  readonly legacy: LegacyQueue;
  readonly executorId: () => string;
  readonly automationFor: (row: JournalRun) => Automation | undefined;
  /** A resumed run goes on: the app hears of it as a start. */
  readonly started: (ctx: RunContext) => void;
}

const RUN_TERMINAL: readonly Run['state'][] = ['completed', 'failed', 'skipped'];

/**
 * Runs that did not end where they began: after a crash or a restart (any unfinished row whose owner is
 * gone), and after the service was unreachable (this process's own rows). Each is looked up on the service
 * and then resumed where it stopped, or ended with the reason it cannot be.
 */
export class Recovery {
  constructor(private readonly d: RecoveryDeps) {}

  /** At start-up: every run left active by a process that is gone is adopted, then requeued, expired or resumed. */
  async afterRestart(): Promise<void> {
    const { journal, pump } = this.d;
    const now = this.d.clock.now();
    for (const row of journal.unfinished()) {
      if (pump.isActive(row.id)) continue;
      if (!journal.adopt(row.id, isProcessAlive)) continue;
      if (row.agent_pid !== null) killProcessGroup(row.agent_pid, 'SIGKILL');
      const a = this.d.automationFor(row);
      if (!a) {
        journal.update(row.id, {
          state: 'failed',
          reason_code: 'executor_restarted',
          reason: 'the automation is unknown after a restart',
        });
        continue;
      }
      const action = afterRestart(row, now, this.d.tuning);
      if (action === 'requeue') pump.enqueue(row);
      else if (action === 'expire')
        journal.update(row.id, {
          state: 'not_run',
          reason_code: 'executor_offline',
          reason: 'the executor stopped before the run started and the occurrence is past the grace window',
        });
      else this.resume(row, a, 'restart');
    }
  }

  /** Runs of this process that stopped because the service was unreachable: resumed where they stopped. */
  resumeStalled(): void {
    const { journal, pump } = this.d;
    const stalled = journal.list({
      states: ['agent_done', 'uploading', 'completing', 'failing'],
      limit: 1000,
    });
    for (const row of stalled) {
      if (pump.active >= this.d.tuning.concurrency) return;
      if (row.owner_pid !== process.pid || pump.isActive(row.id)) continue;
      const a = this.d.automationFor(row);
      if (a) this.resume(row, a, 'retry');
    }
  }

  /** Rows of this process left `starting` by a start that got no answer: retried with the same key. */
  requeueDeferred(): void {
    const { journal, pump } = this.d;
    for (const row of journal.list({ states: ['queued', 'starting'], limit: 1000 })) {
      if (row.owner_pid !== process.pid || pump.isActive(row.id)) continue;
      if (pump.isWaiting(row.id)) continue;
      pump.enqueue(row);
    }
  }

  /**
   * Ends a run that is not in flight with this reason: failed on the service when it started there (one
   * the service already ended stays as it is), and in the journal.
   */
  async abandon(row: JournalRun, reason: string, executorId: string | null): Promise<void> {
    if (TERMINAL_PHASES.includes(row.state)) return;
    if (row.run_id && executorId) {
      await this.d
        .retry(() =>
          this.d.api.failRun(row.run_id as string, {
            error: failureText(reason),
            executor_id: executorId,
            ...(row.claim_token ? { claim_token: row.claim_token } : {}),
          }),
        )
        .catch((err: unknown) => {
          if (!hasCode(err, 'RUN_NOT_ACTIVE', 'CLAIM_CONFLICT')) throw err;
        });
    }
    this.d.journal.update(row.id, {
      state: row.run_id ? 'failed' : 'not_run',
      reason_code: 'agent_cancelled',
      reason,
    });
  }

  private resume(row: JournalRun, a: Automation, why: 'restart' | 'retry'): void {
    this.d.pump.launch(row, a, (ctx) => this.resumeRun(ctx, why), {
      announce: false,
      crashed: (message) =>
        this.d.logger.warn(`resuming ${row.id} failed (next pass tries again): ${message}`),
    });
  }

  private async resumeRun(ctx: RunContext, why: 'restart' | 'retry'): Promise<RunOutcome> {
    const { api, logger } = this.d;
    const row = ctx.row;
    const at = `${row.state}${row.step ? ` (${row.step})` : ''}`;
    ctx.step(
      'recover',
      'info',
      why === 'restart'
        ? `executor restarted; run was at ${at}`
        : `service reachable again; run was at ${at}`,
    );
    let run: Run | undefined;
    try {
      run = (await this.d.retry(() => api.getRun(row.run_id as string, this.d.executorId()))).run;
    } catch (err) {
      if (errorFacts(err).status === 404) {
        ctx.patch({
          state: 'failed',
          reason_code: 'executor_restarted',
          reason: 'the run is unknown to the service',
        });
        return { kind: 'failed', code: 'executor_restarted', message: 'the run is unknown to the service' };
      }
      throw err;
    }
    if (RUN_TERMINAL.includes(run.state)) {
      if (run.state === 'completed') {
        ctx.patch({ state: 'completed' });
        return { kind: 'completed' };
      }
      const message = `the service ended this run as ${run.state}${run.error ? `: ${run.error}` : ''}`;
      ctx.patch({ state: 'failed', reason_code: 'service_error', reason: message });
      return { kind: 'failed', code: 'service_error', message };
    }
    if (row.state === 'failing') {
      await failRun(
        ctx,
        new RunFailure((row.reason_code ?? 'service_error') as ReasonCode, row.reason ?? 'failed'),
      );
      return {
        kind: 'deferred',
        message: `failure ${ctx.row.state === 'failed' ? 'delivered' : 'still not delivered'}`,
      };
    }
    if (row.queue === 'legacy') {
      const leaseEnd = run.lease_expires_at ?? row.lease_expires_at;
      if (run.state !== 'claimed' || (leaseEnd && Date.parse(leaseEnd) <= this.d.clock.now().getTime())) {
        const message = 'the legacy queue lease expired while the executor was down';
        ctx.patch({ state: 'not_run', reason_code: 'lease_lost', reason: message });
        return { kind: 'not_run', code: 'lease_lost', message };
      }
    } else if (row.idempotency_key) {
      // Replaying the start with the same key returns the same run and a token for its uploads.
      try {
        const res = await this.d.retry(() =>
          api.startRun(row.automation_id, {
            executor_id: this.d.executorId(),
            revision: row.revision as number,
            idempotency_key: row.idempotency_key as string,
            ...(row.scheduled_for ? { scheduled_for: row.scheduled_for } : {}),
          }),
        );
        ctx.runToken = res.run_token;
      } catch (err) {
        logger.warn(`could not renew the run token of ${row.run_id}: ${errorFacts(err).message}`);
      }
    }
    const output = await this.outputLeft(ctx, row);
    if (!output) {
      const failure = new RunFailure(
        'executor_restarted',
        `the executor stopped while the run was at ${row.step ?? row.state}${row.agent_pid ? ` (agent pid ${row.agent_pid})` : ''} and the agent left no valid output.json, so the run cannot be resumed`,
      );
      return failRun(ctx, failure);
    }
    ctx.step('recover', 'info', 'resuming at upload with the output the agent left');
    this.d.started(ctx);
    return row.queue === 'legacy' ? this.d.legacy.run(ctx, output) : executeStarted(ctx, output);
  }

  /** The output the agent left: as the journal saved it, else read again from the run directory. */
  private async outputLeft(ctx: RunContext, row: JournalRun): Promise<AgentOutput | undefined> {
    if (row.output) return JSON.parse(row.output) as AgentOutput;
    if (!row.run_dir) return undefined;
    try {
      return await readOutput(ctx);
    } catch (err) {
      // The failure that follows says why the run cannot be resumed; the log keeps what readOutput found.
      this.d.logger.info(`run ${row.id}: no usable output to resume with: ${errorText(err)}`);
      return undefined;
    }
  }
}
