import type { ClaimResponse, Run } from '../../src-shared/api';
import { LIMITS } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import { newSecret } from './credentials';
import type { AutomationRow, RunRow } from './records';
import { automationJson } from './records';
import { requireClaim, runWithEvents } from './runs';
import { requireAutomation, requireRun } from './store';

const TERMINAL_STATES = new Set(['completed', 'failed', 'skipped']);

/**
 * Claims the oldest pending run of an active legacy automation (optionally one automation's). Claiming
 * is one synchronous SQLite transaction, so two claimants never get the same run. The run moves to
 * the automation's current revision: the claimant works from what it is handed now.
 */
export function claimRun(
  ctx: SandboxContext,
  ownerId: string,
  opts: { automationId?: string | undefined; leaseSeconds: number },
): ClaimResponse {
  return ctx.db.transaction((): ClaimResponse => {
    if (opts.automationId !== undefined) requireAutomation(ctx, ownerId, opts.automationId);
    const pending = stmt(
      ctx.db,
      `SELECT r.* FROM agent_runs r JOIN agent_automations a ON a.id = r.automation_id
       WHERE r.owner_id = ? AND r.state = 'pending' AND a.status = 'active' AND a.queue = 'legacy'
         AND (? IS NULL OR r.automation_id = ?)
       ORDER BY r.scheduled_for, r.created_at, r.id LIMIT 1`,
    ).get(ownerId, opts.automationId ?? null, opts.automationId ?? null) as RunRow | undefined;
    if (!pending) return { run: null };
    const automation = requireAutomation(ctx, ownerId, pending.automation_id);
    const claim = newSecret('pdct_');
    const now = ctx.clock.now();
    const leaseExpiresAt = new Date(now.getTime() + opts.leaseSeconds * 1000).toISOString();
    stmt(
      ctx.db,
      `UPDATE agent_runs SET state = 'claimed', claim_token_hash = ?, claimed_at = ?, started_at = COALESCE(started_at, ?),
         lease_seconds = ?, lease_expires_at = ?, revision = ?, updated_at = ? WHERE id = ?`,
    ).run(
      claim.hash,
      now.toISOString(),
      now.toISOString(),
      opts.leaseSeconds,
      leaseExpiresAt,
      automation.revision,
      now.toISOString(),
      pending.id,
    );
    const run = runWithEvents(ctx, requireRun(ctx, ownerId, pending.id));
    return {
      run: {
        ...run,
        claim_token: claim.token,
        lease_expires_at: leaseExpiresAt,
        automation: automationJson(automation as AutomationRow),
      },
    };
  })();
}

function requireLegacy(run: RunRow): void {
  if (run.queue !== 'legacy') {
    throw new SandboxError(
      409,
      'WRONG_EXECUTION_MODE',
      `run ${run.id} is a local run, not a legacy-queue run`,
    );
  }
}

function requireNotFinished(run: RunRow): void {
  if (TERMINAL_STATES.has(run.state)) {
    throw new SandboxError(409, 'RUN_NOT_ACTIVE', `run ${run.id} is ${run.state}, not active`);
  }
}

/**
 * Runs `update` for the holder of a legacy run's live claim, in one transaction, and answers the run
 * as it then stands. The checks run in the order the contract names its errors.
 */
function updateHeldRun(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  claimToken: string,
  update: (run: RunRow, now: Date) => void,
): Run {
  return ctx.db.transaction((): Run => {
    const run = requireRun(ctx, ownerId, runId);
    requireLegacy(run);
    requireNotFinished(run);
    requireClaim(run, claimToken);
    update(run, ctx.clock.now());
    return runWithEvents(ctx, requireRun(ctx, ownerId, run.id));
  })();
}

/** Renew: the lease restarts from now, for `lease_seconds` or else the claim's own lease length. */
export function renewClaim(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  body: { claim_token: string; lease_seconds?: number | undefined },
): Run {
  return updateHeldRun(ctx, ownerId, runId, body.claim_token, (run, now) => {
    const seconds = body.lease_seconds ?? run.lease_seconds ?? LIMITS.leaseSeconds.default;
    const leaseExpiresAt = new Date(now.getTime() + seconds * 1000).toISOString();
    stmt(
      ctx.db,
      'UPDATE agent_runs SET lease_seconds = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?',
    ).run(seconds, leaseExpiresAt, now.toISOString(), run.id);
  });
}

/** Skip: the claim holder declines this occurrence; the run ends `skipped` with the reason. */
export function skipClaim(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  body: { claim_token: string; reason?: string | undefined },
): Run {
  return updateHeldRun(ctx, ownerId, runId, body.claim_token, (run, now) => {
    const at = now.toISOString();
    stmt(
      ctx.db,
      `UPDATE agent_runs SET state = 'skipped', finished_at = ?, result = ?, claim_token_hash = NULL,
         lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(at, JSON.stringify({ skip_reason: body.reason ?? null }), at, run.id);
  });
}
