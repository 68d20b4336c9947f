import type { FailRunRequest, Run, RunEventRequest } from '../../src-shared/api';
import { ACTIVE_RUN_STATES } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import type { Caller } from './credentials';
import { sha256Hex } from './credentials';
import type { EventRow, RunRow } from './records';
import { eventJson, runJson } from './records';
import { listEvents, requireExecutor, requireRun, touchExecutor } from './store';

export const isActive = (run: RunRow): boolean =>
  (ACTIVE_RUN_STATES as readonly string[]).includes(run.state);

export function runWithEvents(ctx: SandboxContext, run: RunRow): Run {
  return { ...runJson(run), events: listEvents(ctx, run.id).map(eventJson) };
}

export function getRun(ctx: SandboxContext, ownerId: string, runId: string, executorId: string): Run {
  const executor = requireExecutor(ctx, ownerId, executorId);
  touchExecutor(ctx, executor);
  return runWithEvents(ctx, requireRun(ctx, ownerId, runId));
}

function requireActive(run: RunRow): void {
  if (!isActive(run)) {
    throw new SandboxError(409, 'RUN_NOT_ACTIVE', `run ${run.id} is ${run.state}, not active`);
  }
}

export function addEvent(
  ctx: SandboxContext,
  caller: Caller,
  runId: string,
  body: Readonly<RunEventRequest>,
): ReturnType<typeof eventJson> {
  return ctx.db.transaction(() => {
    const run = requireRun(ctx, caller.ownerId, runId);
    requireActive(run);
    const id = ctx.uuid();
    const seq = (
      stmt(ctx.db, 'SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM agent_run_events WHERE run_id = ?').get(
        runId,
      ) as {
        n: number;
      }
    ).n;
    stmt(
      ctx.db,
      `INSERT INTO agent_run_events (id, seq, run_id, owner_id, step_id, status, message, metadata, executor_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      seq,
      runId,
      caller.ownerId,
      body.step_id,
      body.status,
      body.message ?? null,
      body.metadata ? JSON.stringify(body.metadata) : null,
      body.executor_id ?? run.executor_id,
      ctx.clock.now().toISOString(),
    );
    return eventJson(stmt(ctx.db, 'SELECT * FROM agent_run_events WHERE id = ?').get(id) as EventRow);
  })();
}

/**
 * A legacy run's claim is held by whoever has its current claim token. A run that went back to
 * `pending` after its lease expired has lost its claim: CLAIM_CONFLICT, like a wrong token.
 */
export function requireClaim(run: RunRow, claimToken: string | undefined): void {
  if (run.state !== 'claimed' || claimToken === undefined || sha256Hex(claimToken) !== run.claim_token_hash) {
    const why =
      run.state === 'pending'
        ? 'its lease expired and it went back to the queue'
        : claimToken === undefined
          ? 'claim_token is missing'
          : 'claim_token does not match the current claim';
    throw new SandboxError(409, 'CLAIM_CONFLICT', `run ${run.id} is not claimed by this caller: ${why}`);
  }
}

/**
 * Fail: a run token, or an API key plus `executor_id` (credential table). A local run may only be
 * failed by its own executor; a legacy run needs its claim token.
 */
export function failRun(
  ctx: SandboxContext,
  caller: Caller,
  runId: string,
  body: Readonly<FailRunRequest>,
): Run {
  return ctx.db.transaction((): Run => {
    if (caller.kind === 'apiKey') {
      if (body.executor_id === undefined) {
        throw new SandboxError(
          401,
          'RUN_TOKEN_REQUIRED',
          'fail needs the run token, or an API key together with executor_id',
        );
      }
      requireExecutor(ctx, caller.ownerId, body.executor_id);
    }
    const run = requireRun(ctx, caller.ownerId, runId);
    requireActive(run);
    if (run.queue === 'legacy') requireClaim(run, body.claim_token);
    else if (caller.kind === 'apiKey' && run.executor_id !== body.executor_id) {
      throw new SandboxError(403, 'EXECUTOR_MISMATCH', `run ${run.id} belongs to another executor`);
    }
    const now = ctx.clock.now().toISOString();
    stmt(
      ctx.db,
      `UPDATE agent_runs SET state = 'failed', error = ?, metadata = COALESCE(?, metadata), finished_at = ?,
         claim_token_hash = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(body.error, body.metadata ? JSON.stringify(body.metadata) : null, now, now, run.id);
    return runWithEvents(ctx, requireRun(ctx, caller.ownerId, run.id));
  })();
}
