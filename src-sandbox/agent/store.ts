import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import type { AutomationRow, DirectUploadRow, EventRow, ExecutorRow, RunRow } from './records';

/** Owner-scoped lookups: a foreign id answers exactly as a missing one does. */

type OwnedTable = 'agent_automations' | 'agent_runs' | 'agent_executors';

/** A row of `table` by id, if it is the owner's. */
const ownedRow = <R>(ctx: SandboxContext, table: OwnedTable, ownerId: string, id: string): R | undefined =>
  stmt(ctx.db, `SELECT * FROM ${table} WHERE id = ? AND owner_id = ?`).get(id, ownerId) as R | undefined;

/** The row, or the 404 that names what is missing. */
function present<R>(row: R | undefined, code: 'NOT_FOUND' | 'EXECUTOR_NOT_FOUND', message: string): R {
  if (!row) throw new SandboxError(404, code, message);
  return row;
}

export function requireAutomation(ctx: SandboxContext, ownerId: string, id: string): AutomationRow {
  return present(
    ownedRow<AutomationRow>(ctx, 'agent_automations', ownerId, id),
    'NOT_FOUND',
    `automation ${id} not found`,
  );
}

export function listAutomations(ctx: SandboxContext, ownerId: string): AutomationRow[] {
  return stmt(ctx.db, 'SELECT * FROM agent_automations WHERE owner_id = ? ORDER BY created_at DESC, id').all(
    ownerId,
  ) as AutomationRow[];
}

export function requireRun(ctx: SandboxContext, ownerId: string, id: string): RunRow {
  return present(ownedRow<RunRow>(ctx, 'agent_runs', ownerId, id), 'NOT_FOUND', `run ${id} not found`);
}

export function findExecutor(ctx: SandboxContext, ownerId: string, id: string): ExecutorRow | undefined {
  return ownedRow<ExecutorRow>(ctx, 'agent_executors', ownerId, id);
}

/** Every operation that names an executor needs it registered: 404 EXECUTOR_NOT_FOUND otherwise. */
export function requireExecutor(ctx: SandboxContext, ownerId: string, id: string): ExecutorRow {
  return present(findExecutor(ctx, ownerId, id), 'EXECUTOR_NOT_FOUND', `executor ${id} is not registered`);
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
