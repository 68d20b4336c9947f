import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import type { AutomationRow, DirectUploadRow, EventRow, ExecutorRow, RunRow } from './records';

/** Owner-scoped lookups: a foreign id answers exactly as a missing one does. */

export function findAutomation(ctx: SandboxContext, ownerId: string, id: string): AutomationRow | undefined {
  return stmt(ctx.db, 'SELECT * FROM agent_automations WHERE id = ? AND owner_id = ?').get(id, ownerId) as
    AutomationRow | undefined;
}

export function requireAutomation(ctx: SandboxContext, ownerId: string, id: string): AutomationRow {
  const row = findAutomation(ctx, ownerId, id);
  if (!row) throw new SandboxError(404, 'NOT_FOUND', `automation ${id} not found`);
  return row;
}

export function listAutomations(ctx: SandboxContext, ownerId: string): AutomationRow[] {
  return stmt(ctx.db, 'SELECT * FROM agent_automations WHERE owner_id = ? ORDER BY created_at DESC, id').all(
    ownerId,
  ) as AutomationRow[];
}

export function findRun(ctx: SandboxContext, ownerId: string, id: string): RunRow | undefined {
  return stmt(ctx.db, 'SELECT * FROM agent_runs WHERE id = ? AND owner_id = ?').get(id, ownerId) as
    RunRow | undefined;
}

export function requireRun(ctx: SandboxContext, ownerId: string, id: string): RunRow {
  const row = findRun(ctx, ownerId, id);
  if (!row) throw new SandboxError(404, 'NOT_FOUND', `run ${id} not found`);
  return row;
}

export function findExecutor(ctx: SandboxContext, ownerId: string, id: string): ExecutorRow | undefined {
  return stmt(ctx.db, 'SELECT * FROM agent_executors WHERE id = ? AND owner_id = ?').get(id, ownerId) as
    ExecutorRow | undefined;
}

/** Every operation that names an executor needs it registered: 404 EXECUTOR_NOT_FOUND otherwise. */
export function requireExecutor(ctx: SandboxContext, ownerId: string, id: string): ExecutorRow {
  const row = findExecutor(ctx, ownerId, id);
  if (!row) throw new SandboxError(404, 'EXECUTOR_NOT_FOUND', `executor ${id} is not registered`);
  return row;
}

export function touchExecutor(ctx: SandboxContext, row: ExecutorRow): void {
  stmt(ctx.db, 'UPDATE agent_executors SET last_seen_at = ? WHERE id = ?').run(
    ctx.clock.now().toISOString(),
    row.id,
  );
}

export function listEvents(ctx: SandboxContext, runId: string): EventRow[] {
  return stmt(ctx.db, 'SELECT * FROM agent_run_events WHERE run_id = ? ORDER BY seq').all(
    runId,
  ) as EventRow[];
}

export function findDirectUpload(
  ctx: SandboxContext,
  runId: string,
  id: string,
): DirectUploadRow | undefined {
  return stmt(ctx.db, 'SELECT * FROM agent_direct_uploads WHERE id = ? AND run_id = ?').get(id, runId) as
    DirectUploadRow | undefined;
}

/** Reads a value of agent_meta, creating it with `make()` the first time. */
export function metaValue(ctx: SandboxContext, key: string, make: () => string): string {
  const row = stmt(ctx.db, 'SELECT value FROM agent_meta WHERE key = ?').get(key) as
    { value: string } | undefined;
  if (row) return row.value;
  const value = make();
  stmt(ctx.db, 'INSERT OR IGNORE INTO agent_meta (key, value) VALUES (?, ?)').run(key, value);
  return (stmt(ctx.db, 'SELECT value FROM agent_meta WHERE key = ?').get(key) as { value: string }).value;
}
