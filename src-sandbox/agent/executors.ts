import { z } from 'zod';
import type { RegisterExecutorRequest } from '../../src-shared/api';
import { LIMITS } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import type { ExecutorRow } from './records';
import { executorJson } from './records';
import { findExecutor, requireExecutor } from './store';

/** An executor as the fixture gives it: already registered, with its id. */
export const FixtureExecutor = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(LIMITS.executorName),
  agent_type: z.string().min(1).max(LIMITS.agentType),
  device_label: z.string().max(200).optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});
export type FixtureExecutor = z.infer<typeof FixtureExecutor>;

export function insertExecutor(ctx: SandboxContext, ownerId: string, e: FixtureExecutor): void {
  if (stmt(ctx.db, 'SELECT 1 FROM agent_executors WHERE id = ?').get(e.id)) {
    throw new SandboxError(400, 'VALIDATION_FAILED', `executors: id ${e.id} is used twice`);
  }
  const now = ctx.clock.now().toISOString();
  stmt(
    ctx.db,
    `INSERT INTO agent_executors (id, owner_id, name, agent_type, device_label, capabilities, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.id,
    ownerId,
    e.name,
    e.agent_type,
    e.device_label ?? null,
    JSON.stringify(e.capabilities ?? {}),
    now,
    now,
  );
}

/** Registers a new executor, or updates the one named by `executor_id` (404 EXECUTOR_NOT_FOUND). */
export function registerExecutor(
  ctx: SandboxContext,
  ownerId: string,
  body: Readonly<RegisterExecutorRequest>,
): ReturnType<typeof executorJson> {
  const now = ctx.clock.now().toISOString();
  if (body.executor_id !== undefined) {
    const existing = requireExecutor(ctx, ownerId, body.executor_id);
    stmt(
      ctx.db,
      `UPDATE agent_executors SET name = ?, agent_type = ?, device_label = ?, capabilities = ?, updated_at = ?,
         last_seen_at = ? WHERE id = ?`,
    ).run(
      body.name,
      body.agent_type,
      body.device_label ?? existing.device_label,
      body.capabilities ? JSON.stringify(body.capabilities) : existing.capabilities,
      now,
      now,
      existing.id,
    );
    return executorJson(findExecutor(ctx, ownerId, existing.id) as ExecutorRow);
  }
  const id = ctx.uuid();
  insertExecutor(ctx, ownerId, {
    id,
    name: body.name,
    agent_type: body.agent_type,
    ...(body.device_label !== undefined ? { device_label: body.device_label } : {}),
    ...(body.capabilities !== undefined ? { capabilities: body.capabilities } : {}),
  });
  stmt(ctx.db, 'UPDATE agent_executors SET last_seen_at = ? WHERE id = ?').run(now, id);
  return executorJson(findExecutor(ctx, ownerId, id) as ExecutorRow);
}
