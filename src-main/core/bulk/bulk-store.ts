import type { BulkCreateRequest, BulkItemResult } from '../../../src-shared/api/bulk';
import type { Db, Migration, Store } from '../store/store';

/**
 * The bulk namespace of the local store. A batch's exact request body is saved before it is first sent, so a
 * retry, or a restart after a crash, sends the identical batch and the service's idempotency does the rest.
 */
const BULK_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE bulk_imports (
           id TEXT PRIMARY KEY,
           scope TEXT NOT NULL,
           fingerprint TEXT NOT NULL,
           source TEXT NOT NULL,
           row_count INTEGER NOT NULL,
           created_at TEXT NOT NULL
         );
         CREATE INDEX bulk_imports_by_fingerprint ON bulk_imports (scope, fingerprint);
         CREATE TABLE bulk_batches (
           batch_id TEXT PRIMARY KEY,
           import_id TEXT NOT NULL REFERENCES bulk_imports (id),
           seq INTEGER NOT NULL,
           body TEXT NOT NULL,
           state TEXT NOT NULL,
           resubmit_of TEXT,
           attempts INTEGER NOT NULL DEFAULT 0,
           created_count INTEGER,
           failed_count INTEGER,
           error TEXT,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL
         );
         CREATE INDEX bulk_batches_by_import ON bulk_batches (import_id, seq);
         CREATE TABLE bulk_items (
           batch_id TEXT NOT NULL REFERENCES bulk_batches (batch_id),
           item_key TEXT NOT NULL,
           row_number INTEGER NOT NULL,
           status TEXT NOT NULL,
           post_id TEXT,
           error TEXT,
           PRIMARY KEY (batch_id, item_key)
         );`,
  },
];

/** `pending`: saved, not yet answered. `sent`: the service answered with results. `rejected`: it refused the whole batch. */
export type BatchState = 'pending' | 'sent' | 'rejected';
export type ItemStatus = 'pending' | 'created' | 'failed';

export interface ImportRecord {
  readonly id: string;
  readonly scope: string;
  readonly fingerprint: string;
  readonly source: string;
  readonly rowCount: number;
  readonly createdAt: string;
}

export interface BatchRecord {
  readonly batchId: string;
  readonly importId: string;
  readonly seq: number;
  readonly body: string;
  readonly state: BatchState;
  readonly resubmitOf: string | null;
  readonly attempts: number;
  readonly createdCount: number | null;
  readonly failedCount: number | null;
  readonly error: string | null;
}

export interface ItemRecord {
  readonly batchId: string;
  readonly itemKey: string;
  readonly row: number;
  readonly status: ItemStatus;
  readonly postId: string | null;
  readonly error: string | null;
}

export interface NewBatch {
  readonly request: BulkCreateRequest;
  /** The import row number of each item, by item_key. */
  readonly rows: ReadonlyMap<string, number>;
  readonly resubmitOf?: string | null;
}

export interface BulkStore {
  readonly db: Db;
  findImport(scope: string, fingerprint: string): ImportRecord | null;
  /** The newest import with this identity under any connection: for identities that name the service's own ids. */
  findImportAnywhere(fingerprint: string): ImportRecord | null;
  getImport(id: string): ImportRecord | null;
  /** Saves an import with all its batches and items in one transaction, before any is sent. */
  createImport(imp: Omit<ImportRecord, 'createdAt'>, batches: readonly NewBatch[]): void;
  /** Adds batches to an existing import (resubmissions). */
  addBatches(importId: string, batches: readonly NewBatch[]): void;
  batches(importId: string): BatchRecord[];
  batch(batchId: string): BatchRecord | null;
  items(batchId: string): ItemRecord[];
  /** Imports with batches still pending, oldest first. */
  unfinishedImports(scope: string): ImportRecord[];
  recordAttempt(batchId: string, error: string | null): void;
  recordResults(batchId: string, results: readonly BulkItemResult[]): void;
  reject(batchId: string, error: string): void;
}

interface ImportRow {
  id: string;
  scope: string;
  fingerprint: string;
  source: string;
  row_count: number;
  created_at: string;
}
interface BatchRow {
  batch_id: string;
  import_id: string;
  seq: number;
  body: string;
  state: BatchState;
  resubmit_of: string | null;
  attempts: number;
  created_count: number | null;
  failed_count: number | null;
  error: string | null;
}
interface ItemRow {
  batch_id: string;
  item_key: string;
  row_number: number;
  status: ItemStatus;
  post_id: string | null;
  error: string | null;
}

const toImport = (r: ImportRow): ImportRecord => ({
  id: r.id,
  scope: r.scope,
  fingerprint: r.fingerprint,
  source: r.source,
  rowCount: r.row_count,
  createdAt: r.created_at,
});
const toBatch = (r: BatchRow): BatchRecord => ({
  batchId: r.batch_id,
  importId: r.import_id,
  seq: r.seq,
  body: r.body,
  state: r.state,
  resubmitOf: r.resubmit_of,
  attempts: r.attempts,
  createdCount: r.created_count,
  failedCount: r.failed_count,
  error: r.error,
});
const toItem = (r: ItemRow): ItemRecord => ({
  batchId: r.batch_id,
  itemKey: r.item_key,
  row: r.row_number,
  status: r.status,
  postId: r.post_id,
  error: r.error,
});

export function openBulkStore(store: Store): BulkStore {
  store.migrate('bulk', BULK_MIGRATIONS);
  const db = store.db;
  const now = (): string => new Date().toISOString();
  const findImportStmt = db.prepare<[string, string], ImportRow>(
    'SELECT * FROM bulk_imports WHERE scope = ? AND fingerprint = ? ORDER BY created_at DESC LIMIT 1',
  );
  const findAnywhereStmt = db.prepare<[string], ImportRow>(
    'SELECT * FROM bulk_imports WHERE fingerprint = ? ORDER BY created_at DESC LIMIT 1',
  );
  const getImportStmt = db.prepare<[string], ImportRow>('SELECT * FROM bulk_imports WHERE id = ?');
  const insertImport = db.prepare(
    `INSERT INTO bulk_imports (id, scope, fingerprint, source, row_count, created_at)
     VALUES (@id, @scope, @fingerprint, @source, @row_count, @created_at)`,
  );
  const maxSeq = db.prepare<[string], { n: number | null }>(
    'SELECT MAX(seq) AS n FROM bulk_batches WHERE import_id = ?',
  );
  const insertBatch = db.prepare(
    `INSERT INTO bulk_batches (batch_id, import_id, seq, body, state, resubmit_of, created_at, updated_at)
     VALUES (@batch_id, @import_id, @seq, @body, 'pending', @resubmit_of, @now, @now)`,
  );
  const insertItem = db.prepare<[string, string, number]>(
    `INSERT INTO bulk_items (batch_id, item_key, row_number, status) VALUES (?, ?, ?, 'pending')`,
  );
  const batchesStmt = db.prepare<[string], BatchRow>(
    'SELECT * FROM bulk_batches WHERE import_id = ? ORDER BY seq',
  );
  const batchStmt = db.prepare<[string], BatchRow>('SELECT * FROM bulk_batches WHERE batch_id = ?');
  const itemsStmt = db.prepare<[string], ItemRow>(
    'SELECT * FROM bulk_items WHERE batch_id = ? ORDER BY row_number',
  );
  const unfinishedStmt = db.prepare<[string], ImportRow>(
    `SELECT * FROM bulk_imports WHERE scope = ? AND id IN (SELECT import_id FROM bulk_batches WHERE state = 'pending')
     ORDER BY created_at`,
  );
  const attemptStmt = db.prepare<[string | null, string, string]>(
    'UPDATE bulk_batches SET attempts = attempts + 1, error = ?, updated_at = ? WHERE batch_id = ?',
  );
  const itemResult = db.prepare<[string, string | null, string | null, string, string]>(
    'UPDATE bulk_items SET status = ?, post_id = ?, error = ? WHERE batch_id = ? AND item_key = ?',
  );
  const batchResult = db.prepare<[number, number, string, string]>(
    `UPDATE bulk_batches SET state = 'sent', created_count = ?, failed_count = ?, error = NULL, updated_at = ? WHERE batch_id = ?`,
  );
  const rejectStmt = db.prepare<[string, string, string]>(
    `UPDATE bulk_batches SET state = 'rejected', error = ?, updated_at = ? WHERE batch_id = ?`,
  );

  const addBatchesTx = (importId: string, batches: readonly NewBatch[]): void => {
    let seq = maxSeq.get(importId)?.n ?? 0;
    for (const b of batches) {
      seq += 1;
      insertBatch.run({
        batch_id: b.request.batch_id,
        import_id: importId,
        seq,
        body: JSON.stringify(b.request),
        resubmit_of: b.resubmitOf ?? null,
        now: now(),
      });
      for (const item of b.request.items)
        insertItem.run(b.request.batch_id, item.item_key, b.rows.get(item.item_key) ?? 0);
    }
  };

  return {
    db,
    findImport(scope, fingerprint) {
      const r = findImportStmt.get(scope, fingerprint);
      return r ? toImport(r) : null;
    },
    findImportAnywhere(fingerprint) {
      const r = findAnywhereStmt.get(fingerprint);
      return r ? toImport(r) : null;
    },
    getImport(id) {
      const r = getImportStmt.get(id);
      return r ? toImport(r) : null;
    },
    createImport(imp, batches) {
      db.transaction(() => {
        insertImport.run({
          id: imp.id,
          scope: imp.scope,
          fingerprint: imp.fingerprint,
          source: imp.source,
          row_count: imp.rowCount,
          created_at: now(),
        });
        addBatchesTx(imp.id, batches);
      })();
    },
    addBatches(importId, batches) {
      db.transaction(() => addBatchesTx(importId, batches))();
    },
    batches: (importId) => batchesStmt.all(importId).map(toBatch),
    batch(batchId) {
      const r = batchStmt.get(batchId);
      return r ? toBatch(r) : null;
    },
    items: (batchId) => itemsStmt.all(batchId).map(toItem),
    unfinishedImports: (scope) => unfinishedStmt.all(scope).map(toImport),
    recordAttempt(batchId, error) {
      attemptStmt.run(error, now(), batchId);
    },
    recordResults(batchId, results) {
      db.transaction(() => {
        for (const r of results) itemResult.run(r.status, r.post_id, r.error, batchId, r.item_key);
        const created = results.filter((r) => r.status === 'created').length;
        batchResult.run(created, results.length - created, now(), batchId);
      })();
    },
    reject(batchId, error) {
      rejectStmt.run(error, now(), batchId);
    },
  };
}
