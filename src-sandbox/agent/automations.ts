import type { AckRequest, Automation, StartRunRequest, StartRunResponse } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import type { AutomationInput } from './automation-input';
import type { Caller } from './credentials';
import { issueRunToken } from './credentials';
import type { AutomationRow, RunRow } from './records';
import { automationJson, automationTargets, runJson } from './records';
import { listAutomations, requireAutomation, requireExecutor, touchExecutor } from './store';

/** Targets must name the owner's own accounts, on the account's platform. */
function checkTargets(ctx: SandboxContext, ownerId: string, input: Readonly<AutomationInput>): void {
  input.targets.forEach((t, i) => {
    const account = stmt(ctx.db, 'SELECT platform FROM accounts WHERE id = ? AND owner_id = ?').get(
      t.social_account_id,
      ownerId,
    ) as { platform: string } | undefined;
    if (!account) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `targets.${i}.social_account_id: account ${t.social_account_id} not found`,
      );
    }
    if (account.platform !== t.platform) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `targets.${i}.platform: account ${t.social_account_id} is a ${account.platform} account, not ${t.platform}`,
      );
    }
  });
}

/**
 * Creates or replaces an automation (fixture and control route). A replace increments `revision`
 * and keeps the ack; the owner never changes.
 */
export function upsertAutomation(
  ctx: SandboxContext,
  id: string,
  ownerId: string | undefined,
  input: Readonly<AutomationInput>,
): Automation {
  const existing = stmt(ctx.db, 'SELECT * FROM agent_automations WHERE id = ?').get(id) as
    AutomationRow | undefined;
  if (existing && ownerId !== undefined && ownerId !== existing.owner_id) {
    throw new SandboxError(400, 'VALIDATION_FAILED', 'owner_id: an automation cannot move to another owner');
  }
  const owner = existing?.owner_id ?? ownerId;
  if (owner === undefined) {
    throw new SandboxError(400, 'VALIDATION_FAILED', 'owner_id: is required when the automation is new');
  }
  if (!existing && !stmt(ctx.db, 'SELECT 1 FROM owners WHERE id = ?').get(owner)) {
    throw new SandboxError(400, 'VALIDATION_FAILED', `owner_id: owner ${owner} not found`);
  }
  checkTargets(ctx, owner, input);
  const now = ctx.clock.now().toISOString();
  const values = {
    id,
    owner_id: owner,
    name: input.name,
    status: input.status,
    execution_mode: input.execution_mode,
    queue: input.queue,
    cron: input.schedule.cron,
    timezone: input.schedule.timezone,
    instructions: input.instructions,
    skill: input.skill ? JSON.stringify(input.skill) : null,
    targets: JSON.stringify(input.targets),
    executor_id: input.executor_id ?? null,
    now,
  };
  if (existing) {
    stmt(
      ctx.db,
      `UPDATE agent_automations SET name = @name, status = @status, execution_mode = @execution_mode,
         queue = @queue, cron = @cron, timezone = @timezone, instructions = @instructions, skill = @skill,
         targets = @targets, executor_id = @executor_id, revision = revision + 1,
         -- occurrences are counted from a resume, not from before the pause
         scheduled_through = CASE WHEN status = 'active' THEN scheduled_through ELSE @now END,
         updated_at = @now
       WHERE id = @id`,
    ).run(values);
  } else {
    stmt(
      ctx.db,
      `INSERT INTO agent_automations (id, owner_id, name, status, execution_mode, queue, cron, timezone,
         instructions, skill, targets, executor_id, revision, scheduled_through, created_at, updated_at)
       VALUES (@id, @owner_id, @name, @status, @execution_mode, @queue, @cron, @timezone, @instructions,
         @skill, @targets, @executor_id, 1, @now, @now, @now)`,
    ).run(values);
  }
  return automationJson(requireAutomation(ctx, owner, id));
}

/** `GET /api/automations`: all of the owner's, or only its run's automation for a run token. */
export function automationsForCaller(ctx: SandboxContext, caller: Caller): Automation[] {
  if (caller.kind === 'runToken') {
    const row = stmt(
      ctx.db,
      `SELECT a.* FROM agent_automations a JOIN agent_runs r ON r.automation_id = a.id
       WHERE r.id = ? AND a.owner_id = ?`,
    ).get(caller.runId, caller.ownerId) as AutomationRow | undefined;
    return row ? [automationJson(row)] : [];
  }
  return listAutomations(ctx, caller.ownerId).map(automationJson);
}

/** Sync: automations bound to this executor or to none, every status, so removals reach it too. */
export function syncAutomations(ctx: SandboxContext, ownerId: string, executorId: string): Automation[] {
  const executor = requireExecutor(ctx, ownerId, executorId);
  touchExecutor(ctx, executor);
  return listAutomations(ctx, ownerId)
    .filter((a) => a.executor_id === null || a.executor_id === executorId)
    .map(automationJson);
}

function checkBinding(row: AutomationRow, executorId: string): void {
  if (row.executor_id !== null && row.executor_id !== executorId) {
    throw new SandboxError(403, 'EXECUTOR_MISMATCH', `automation ${row.id} is bound to another executor`);
  }
}

function checkRevision(row: AutomationRow, revision: number): void {
  if (revision !== row.revision) {
    throw new SandboxError(
      409,
      'REVISION_STALE',
      `revision ${revision} is stale: automation ${row.id} is at revision ${row.revision}; sync again`,
    );
  }
}

export function ackAutomation(
  ctx: SandboxContext,
  ownerId: string,
  id: string,
  body: Readonly<AckRequest>,
): Automation {
  const row = requireAutomation(ctx, ownerId, id);
  checkBinding(row, body.executor_id);
  const executor = requireExecutor(ctx, ownerId, body.executor_id);
  checkRevision(row, body.revision);
  touchExecutor(ctx, executor);
  stmt(
    ctx.db,
    'UPDATE agent_automations SET acked_revision = ?, acked_by = ?, acked_at = ? WHERE id = ?',
  ).run(body.revision, body.executor_id, ctx.clock.now().toISOString(), id);
  return automationJson(requireAutomation(ctx, ownerId, id));
}

/**
 * Start is idempotent per (automation, idempotency_key): a repeat by the same executor answers the
 * same run with a fresh run token (only token hashes are stored), whatever the automation's state
 * now. The same key from another executor is 409 RUN_CONFLICT: that occurrence is someone else's.
 */
export function startRun(
  ctx: SandboxContext,
  ownerId: string,
  automationId: string,
  body: Readonly<StartRunRequest>,
): StartRunResponse {
  return ctx.db.transaction((): StartRunResponse => {
    const row = requireAutomation(ctx, ownerId, automationId);
    const executor = requireExecutor(ctx, ownerId, body.executor_id);
    touchExecutor(ctx, executor);
    const existing = stmt(
      ctx.db,
      'SELECT * FROM agent_runs WHERE automation_id = ? AND idempotency_key = ?',
    ).get(automationId, body.idempotency_key) as RunRow | undefined;
    if (existing) {
      if (existing.executor_id !== body.executor_id) {
        throw new SandboxError(
          409,
          'RUN_CONFLICT',
          `idempotency_key ${body.idempotency_key} already started run ${existing.id} on another executor`,
        );
      }
      const token = issueRunToken(ctx, ownerId, existing.id);
      return { run: runJson(existing), run_token: token.token, run_token_expires_at: token.expiresAt };
    }
    checkBinding(row, body.executor_id);
    if (row.status === 'removed') {
      throw new SandboxError(409, 'AUTOMATION_REMOVED', `automation ${row.id} has been removed`);
    }
    if (row.status === 'paused') {
      throw new SandboxError(409, 'AUTOMATION_PAUSED', `automation ${row.id} is paused`);
    }
    if (row.queue === 'legacy') {
      throw new SandboxError(
        409,
        'WRONG_EXECUTION_MODE',
        `automation ${row.id} runs on the legacy claim queue; claim its runs with POST /api/agent/runs/claim`,
      );
    }
    checkRevision(row, body.revision);
    if (automationTargets(row).length === 0) {
      throw new SandboxError(409, 'NO_TARGETS', `automation ${row.id} has no targets`);
    }
    const id = ctx.uuid();
    const now = ctx.clock.now().toISOString();
    stmt(
      ctx.db,
      `INSERT INTO agent_runs (id, owner_id, automation_id, revision, queue, state, scheduled_for,
         idempotency_key, executor_id, started_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'local', 'running', ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      ownerId,
      automationId,
      row.revision,
      body.scheduled_for ? new Date(body.scheduled_for).toISOString() : null,
      body.idempotency_key,
      body.executor_id,
      now,
      now,
      now,
    );
    const token = issueRunToken(ctx, ownerId, id);
    const run = stmt(ctx.db, 'SELECT * FROM agent_runs WHERE id = ?').get(id) as RunRow;
    return { run: runJson(run), run_token: token.token, run_token_expires_at: token.expiresAt };
  })();
}
