import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';

/** The local store as src-main/core/store/store.ts offers it. */
export interface StoreLike {
  readonly db: Database;
  migrate(namespace: string, migrations: readonly { version: number; up: (db: Database) => void }[]): void;
}

export const RUN_PHASES = [
  'queued',
  'starting',
  'running',
  'agent_done',
  'uploading',
  'completing',
  /** Failed here; the service has not yet been told (it was unreachable). */
  'failing',
  'completed',
  'failed',
  'not_run',
] as const;
export type RunPhase = (typeof RUN_PHASES)[number];
export const TERMINAL_PHASES: readonly RunPhase[] = ['completed', 'failed', 'not_run'];

/** Why an occurrence did not run, or why a run failed before the agent did anything. */
export const REASON_CODES = [
  'executor_offline',
  'executor_paused',
  'executor_stopped',
  'executor_restarted',
  'revision_not_acked',
  'automation_paused',
  'automation_removed',
  'revision_stale',
  'no_targets',
  'wrong_execution_mode',
  'lease_lost',
  'other_executor',
  'agent_failed',
  'agent_timeout',
  'agent_cancelled',
  'invalid_output',
  'upload_failed',
  'direct_upload_failed',
  'complete_failed',
  'start_failed',
  'service_error',
  'skipped',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

const Row = z.object({
  id: z.string(),
  scope: z.string(),
  automation_id: z.string(),
  automation_name: z.string().nullable(),
  queue: z.enum(['local', 'legacy']),
  scheduled_for: z.string().nullable(),
  revision: z.number().nullable(),
  idempotency_key: z.string().nullable(),
  run_id: z.string().nullable(),
  state: z.enum(RUN_PHASES),
  step: z.string().nullable(),
  reason_code: z.string().nullable(),
  reason: z.string().nullable(),
  run_dir: z.string().nullable(),
  output: z.string().nullable(),
  progress: z.string().nullable(),
  claim_token: z.string().nullable(),
  lease_expires_at: z.string().nullable(),
  agent_pid: z.number().nullable(),
  owner_pid: z.number().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  updated_at: z.string(),
});
export type JournalRun = z.infer<typeof Row>;

const StepRow = z.object({
  seq: z.number(),
  run_local_id: z.string(),
  at: z.string(),
  step_id: z.string(),
  status: z.string(),
  message: z.string().nullable(),
  source: z.enum(['executor', 'agent']),
});
export type JournalStep = z.infer<typeof StepRow>;

const AutomationRow = z.object({
  scope: z.string(),
  automation_id: z.string(),
  revision: z.number(),
  acked_revision: z.number().nullable(),
  cursor: z.string().nullable(),
  ack_error: z.string().nullable(),
  data: z.string(),
  updated_at: z.string(),
});
export type JournalAutomation = z.infer<typeof AutomationRow>;

const MIGRATIONS = [
  {
    version: 1,
    up: (db: Database) => {
      db.exec(`
        CREATE TABLE executor_identity (
          scope TEXT PRIMARY KEY, executor_id TEXT NOT NULL, name TEXT NOT NULL, agent_type TEXT NOT NULL,
          updated_at TEXT NOT NULL);
        CREATE TABLE executor_automations (
          scope TEXT NOT NULL, automation_id TEXT NOT NULL, revision INTEGER NOT NULL, acked_revision INTEGER,
          cursor TEXT, ack_error TEXT, data TEXT NOT NULL, updated_at TEXT NOT NULL,
          PRIMARY KEY (scope, automation_id));
        CREATE TABLE executor_runs (
          id TEXT PRIMARY KEY, scope TEXT NOT NULL, automation_id TEXT NOT NULL, automation_name TEXT,
          queue TEXT NOT NULL, scheduled_for TEXT, revision INTEGER, idempotency_key TEXT, run_id TEXT,
          state TEXT NOT NULL, step TEXT, reason_code TEXT, reason TEXT, run_dir TEXT, output TEXT, progress TEXT,
          claim_token TEXT, lease_expires_at TEXT, agent_pid INTEGER, owner_pid INTEGER,
          created_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, updated_at TEXT NOT NULL);
        CREATE UNIQUE INDEX executor_runs_occurrence ON executor_runs (scope, automation_id, scheduled_for)
          WHERE queue = 'local';
        -- Not unique: a legacy run whose lease was lost is claimed again, one journal row per claim.
        CREATE INDEX executor_runs_run_id ON executor_runs (scope, run_id);
        CREATE INDEX executor_runs_state ON executor_runs (scope, state);
        CREATE INDEX executor_runs_created ON executor_runs (created_at);
        CREATE TABLE executor_run_steps (
          seq INTEGER PRIMARY KEY AUTOINCREMENT, run_local_id TEXT NOT NULL, at TEXT NOT NULL, step_id TEXT NOT NULL,
          status TEXT NOT NULL, message TEXT, source TEXT NOT NULL);
        CREATE INDEX executor_run_steps_run ON executor_run_steps (run_local_id, seq);
      `);
    },
  },
] as const;

export type RunPatch = Partial<
  Omit<JournalRun, 'id' | 'scope' | 'automation_id' | 'queue' | 'created_at' | 'updated_at'>
>;

export interface NewRun {
  readonly automationId: string;
  readonly automationName: string | null;
  readonly queue: 'local' | 'legacy';
  readonly scheduledFor: string | null;
  readonly revision: number | null;
  readonly state: RunPhase;
  readonly idempotencyKey?: string | null;
  readonly runId?: string | null;
  readonly reasonCode?: ReasonCode | null;
  readonly reason?: string | null;
  readonly claimToken?: string | null;
  readonly leaseExpiresAt?: string | null;
}

export interface ListFilter {
  readonly limit?: number;
  readonly automationId?: string;
  readonly states?: readonly RunPhase[];
}

/** The run journal, executor identity and occurrence ledger, in the local store's `executor` namespace. */
export class Journal {
  private readonly db: Database;
  /**
   * Each statement prepared once: a fleet executor records hundreds of occurrences a minute, and preparing
   * (parsing and planning) the same text on every call was a tenth of its pass.
   */
  private readonly statements = new Map<string, Statement>();

  constructor(
    store: StoreLike,
    /** null: a read-only view of every scope (the CLI's `runs` command). */
    readonly scope: string | null,
    private readonly nowIso: () => string = () => new Date().toISOString(),
  ) {
    store.migrate('executor', MIGRATIONS);
    this.db = store.db;
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  identity(): { executorId: string; name: string; agentType: string } | undefined {
    const row = this.sql('SELECT executor_id, name, agent_type FROM executor_identity WHERE scope = ?').get(
      this.scope,
    ) as { executor_id: string; name: string; agent_type: string } | undefined;
    return row && { executorId: row.executor_id, name: row.name, agentType: row.agent_type };
  }

  saveIdentity(executorId: string, name: string, agentType: string): void {
    this.sql(
      `INSERT INTO executor_identity (scope, executor_id, name, agent_type, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET executor_id = excluded.executor_id, name = excluded.name,
           agent_type = excluded.agent_type, updated_at = excluded.updated_at`,
    ).run(this.scope, executorId, name, agentType, this.nowIso());
  }

  automation(id: string): JournalAutomation | undefined {
    const row = this.sql('SELECT * FROM executor_automations WHERE scope = ? AND automation_id = ?').get(
      this.scope,
      id,
    );
    return row === undefined ? undefined : AutomationRow.parse(row);
  }

  automations(): JournalAutomation[] {
    return this.sql('SELECT * FROM executor_automations WHERE scope = ? ORDER BY automation_id')
      .all(this.scope)
      .map((r) => AutomationRow.parse(r));
  }

  saveAutomation(id: string, revision: number, data: unknown): void {
    this.sql(
      `INSERT INTO executor_automations (scope, automation_id, revision, data, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope, automation_id) DO UPDATE SET revision = excluded.revision, data = excluded.data,
           updated_at = excluded.updated_at`,
    ).run(this.scope, id, revision, JSON.stringify(data), this.nowIso());
  }

  setAck(id: string, ackedRevision: number | null, ackError: string | null): void {
    this.sql(
      `UPDATE executor_automations SET acked_revision = COALESCE(?, acked_revision), ack_error = ?, updated_at = ?
         WHERE scope = ? AND automation_id = ?`,
    ).run(ackedRevision, ackError, this.nowIso(), this.scope, id);
  }

  /**
   * Records the decisions for one automation's occurrences and moves its cursor, atomically. Returns the
   * rows this call inserted (another executor sharing the store may have recorded some already).
   */
  recordOccurrences(automationId: string, cursor: string, rows: readonly NewRun[]): JournalRun[] {
    return this.db.transaction(() => {
      const inserted: JournalRun[] = [];
      for (const r of rows) {
        const row = this.insert(r, true);
        if (row) inserted.push(row);
      }
      this.sql(
        'UPDATE executor_automations SET cursor = ?, updated_at = ? WHERE scope = ? AND automation_id = ?',
      ).run(cursor, this.nowIso(), this.scope, automationId);
      return inserted;
    })();
  }

  /** Inserts a run; with `ignoreDuplicate`, a row for the same occurrence or service run leaves it as is. */
  insert(r: NewRun, ignoreDuplicate = false): JournalRun | undefined {
    const now = this.nowIso();
    const id = randomUUID();
    const info = this.sql(
      `INSERT ${ignoreDuplicate ? 'OR IGNORE' : ''} INTO executor_runs (id, scope, automation_id, automation_name,
           queue, scheduled_for, revision, idempotency_key, run_id, state, reason_code, reason, claim_token,
           lease_expires_at, owner_pid, created_at, finished_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      this.scope,
      r.automationId,
      r.automationName,
      r.queue,
      r.scheduledFor,
      r.revision,
      r.idempotencyKey ?? null,
      r.runId ?? null,
      r.state,
      r.reasonCode ?? null,
      r.reason ?? null,
      r.claimToken ?? null,
      r.leaseExpiresAt ?? null,
      process.pid,
      now,
      TERMINAL_PHASES.includes(r.state) ? now : null,
      now,
    );
    return info.changes === 1 ? this.get(id) : undefined;
  }

  update(id: string, patch: RunPatch): JournalRun {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    const sets = entries.map(([k]) => `${k} = ?`);
    sets.push('updated_at = ?');
    const values = entries.map(([, v]) => v as string | number | null);
    values.push(this.nowIso());
    if (patch.state && TERMINAL_PHASES.includes(patch.state) && patch.finished_at === undefined) {
      sets.push('finished_at = ?');
      values.push(this.nowIso());
    }
    this.sql(`UPDATE executor_runs SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    return this.get(id) as JournalRun;
  }

  get(id: string): JournalRun | undefined {
    const row = this.sql('SELECT * FROM executor_runs WHERE id = ?').get(id);
    return row === undefined ? undefined : Row.parse(row);
  }

  /** By local id, service run id, or a unique prefix of either. */
  find(idOrRunId: string): JournalRun | undefined {
    const exact = this.sql(
      'SELECT * FROM executor_runs WHERE id = ? OR run_id = ? ORDER BY created_at DESC LIMIT 1',
    ).get(idOrRunId, idOrRunId);
    if (exact !== undefined) return Row.parse(exact);
    const like = this.sql('SELECT * FROM executor_runs WHERE id LIKE ? OR run_id LIKE ? LIMIT 2').all(
      `${idOrRunId}%`,
      `${idOrRunId}%`,
    );
    return like.length === 1 ? Row.parse(like[0]) : undefined;
  }

  byRunId(runId: string): JournalRun | undefined {
    const row = this.sql('SELECT * FROM executor_runs WHERE scope = ? AND run_id = ?').get(this.scope, runId);
    return row === undefined ? undefined : Row.parse(row);
  }

  list(f: ListFilter = {}): JournalRun[] {
    const where = this.scope === null ? ['1 = 1'] : ['scope = ?'];
    const args: (string | number)[] = this.scope === null ? [] : [this.scope];
    if (f.automationId) {
      where.push('automation_id = ?');
      args.push(f.automationId);
    }
    if (f.states && f.states.length > 0) {
      where.push(`state IN (${f.states.map(() => '?').join(', ')})`);
      args.push(...f.states);
    }
    args.push(f.limit ?? 1000);
    return this.sql(
      `SELECT * FROM executor_runs WHERE ${where.join(' AND ')}
         ORDER BY COALESCE(scheduled_for, created_at) DESC, created_at DESC LIMIT ?`,
    )
      .all(...args)
      .map((r) => Row.parse(r));
  }

  /** Every run of this scope not yet in a final state. */
  unfinished(): JournalRun[] {
    return this.list({ states: RUN_PHASES.filter((p) => !TERMINAL_PHASES.includes(p)), limit: 100_000 });
  }

  /** Claims a run for this process; false when a live process other than this one holds it. */
  adopt(id: string, isAlive: (pid: number) => boolean): boolean {
    return this.db.transaction(() => {
      const row = this.get(id);
      if (!row) return false;
      if (row.owner_pid !== null && row.owner_pid !== process.pid && isAlive(row.owner_pid)) return false;
      this.sql('UPDATE executor_runs SET owner_pid = ? WHERE id = ?').run(process.pid, id);
      return true;
    })();
  }

  addStep(
    runLocalId: string,
    stepId: string,
    status: string,
    message: string | null,
    source: 'executor' | 'agent',
  ): void {
    this.sql(
      'INSERT INTO executor_run_steps (run_local_id, at, step_id, status, message, source) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(runLocalId, this.nowIso(), stepId, status, message, source);
  }

  steps(runLocalId: string): JournalStep[] {
    return this.sql('SELECT * FROM executor_run_steps WHERE run_local_id = ? ORDER BY seq')
      .all(runLocalId)
      .map((r) => StepRow.parse(r));
  }
}
