import type { Automation } from '../../../src-shared/api';
import type { Logger } from '../common/logger';
import type { AgentOutput } from './agent-output';
import type { Clock } from './clock';
import type { Journal } from './journal';
import { errorFacts, type ExecutorApi, type Retrier } from './ports';
import type { RunContext } from './run-context';
import { CancelReason, executeStarted, type RunOutcome } from './run-flow';
import type { RunPump } from './run-pump';

export interface LegacyQueueDeps {
  readonly api: ExecutorApi;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry: Retrier;
  readonly pump: RunPump;
  readonly leaseSeconds: () => number;
  /** False while paused or stopping: nothing is claimed. */
  readonly mayClaim: () => boolean;
  /** A claimed run begins (or resumes): the app hears of it. */
  readonly started: (ctx: RunContext) => void;
}

/**
 * Automations on the legacy queue: runs are claimed from the service with a lease, one per free slot, and
 * the lease is renewed at a third of its length until the run ends. A lease that cannot be kept cancels the
 * run: another executor may claim it once the lease has expired.
 */
export class LegacyQueue {
  constructor(private readonly d: LegacyQueueDeps) {}

  /** Claims runs of `a` while slots are free, and starts each. */
  async claim(a: Automation): Promise<void> {
    const { api, journal, clock, pump } = this.d;
    while (this.d.mayClaim() && pump.hasFreeSlot()) {
      let res;
      try {
        res = await this.d.retry(
          () => api.claimRun({ automation_id: a.id, lease_seconds: this.d.leaseSeconds() }),
          { answeredOnly: true },
        );
      } catch (err) {
        // A claim whose answer was lost expires with its lease and returns to the queue.
        this.d.logger.warn(`claim for ${a.name} failed: ${errorFacts(err).message}`);
        return;
      }
      const run = res.run;
      if (!run) return;
      const row = journal.insert({
        automationId: a.id,
        automationName: a.name,
        queue: 'legacy',
        scheduledFor: run.scheduled_for,
        revision: run.revision,
        state: 'running',
        runId: run.id,
        claimToken: run.claim_token,
        leaseExpiresAt: run.lease_expires_at,
      });
      if (!row) return;
      journal.update(row.id, { started_at: clock.now().toISOString() });
      pump.launch(row, a, (ctx) => this.run(ctx), {
        announce: true,
        crashed: (message) => this.d.logger.error(`run ${row.id} crashed: ${message}`),
      });
    }
  }

  /** Runs a claimed run (or resumes one with the output its agent left), renewing its lease meanwhile. */
  async run(ctx: RunContext, resumeWith?: AgentOutput): Promise<RunOutcome> {
    this.d.started(ctx);
    const stopRenew = new AbortController();
    const renewing = this.renew(ctx, stopRenew.signal);
    try {
      return await executeStarted(ctx, resumeWith);
    } finally {
      stopRenew.abort();
      await renewing;
    }
  }

  private async renew(ctx: RunContext, signal: AbortSignal): Promise<void> {
    const { api, clock } = this.d;
    const everyMs = Math.max(1000, Math.floor((this.d.leaseSeconds() * 1000) / 3));
    for (;;) {
      try {
        await clock.sleep(everyMs, signal);
      } catch {
        return; // the run ended
      }
      try {
        const leaseSeconds = this.d.leaseSeconds();
        const res = (await this.d.retry(
          () =>
            api.renewClaim(ctx.runId as string, {
              claim_token: ctx.row.claim_token as string,
              lease_seconds: leaseSeconds,
            }),
          { attempts: 3, signal },
        )) as { run?: { lease_expires_at?: string | null } } | undefined;
        const until = res?.run?.lease_expires_at;
        ctx.patch({
          lease_expires_at: until ?? new Date(clock.now().getTime() + leaseSeconds * 1000).toISOString(),
        });
        ctx.step('lease', 'info', `lease renewed until ${ctx.row.lease_expires_at}`);
      } catch (err) {
        if (signal.aborted) return;
        const f = errorFacts(err);
        const expires = ctx.row.lease_expires_at ? Date.parse(ctx.row.lease_expires_at) : 0;
        if (f.status !== undefined && f.status < 500 ? true : clock.now().getTime() >= expires) {
          ctx.abort.abort(new CancelReason('lease_lost', `the legacy queue lease was lost: ${f.message}`));
          return;
        }
        this.d.logger.warn(
          `run ${ctx.runId}: lease renewal failed, trying again while it lasts: ${f.message}`,
        );
      }
    }
  }
}
