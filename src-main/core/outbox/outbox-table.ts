import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CreatePostRequest } from '../../../src-shared/api/posts';
import { errorText } from '../common/error-text';
import { Emitter, type Disposable } from '../common/events';
import type { Logger } from '../common/logger';
import { isProcessAlive } from '../common/process-alive';
import type { Db, Store } from '../store/store';
import { OUTBOX_MIGRATIONS, OUTBOX_NAMESPACE } from './migrations';
import type {
  FlushReport,
  OutboxEntry,
  OutboxFailure,
  OutboxKind,
  OutboxResult,
  OutboxState,
  RetryOf,
} from './outbox-types';

/** A row of `outbox_entries`, as SQLite holds it. */
export interface Row {
  id: string;
  scope: string;
  kind: OutboxKind;
  request: string;
  batch_id: string | null;
  item_key: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  known_post_ids: string | null;
  fence_at: number | null;
  owner: string | null;
  result: string | null;
  error: string | null;
  retry_of: string | null;
  created_at: string;
  updated_at: string;
}

const HOST = hostname();
/** Outbox instances alive in this process; a `sending` row owned by any other is stale once its process is gone. */
const liveOwners = new Set<string>();

/** A row in `sending` whose owner can no longer be working on it. */
function ownerGone(owner: string | null, updatedAt: string, now: number): boolean {
  if (!owner) return true;
  if (liveOwners.has(owner)) return false;
  const [host, pidText] = owner.split('|');
  const pid = Number(pidText);
  if (host === HOST && Number.isInteger(pid)) return pid === process.pid || !isProcessAlive(pid);
  // Another machine sharing the file: trust it for a while.
  return now - Date.parse(updatedAt) > 10 * 60_000;
}

export function toEntry(r: Row): OutboxEntry {
  return {
    id: r.id,
    scope: r.scope,
    kind: r.kind,
    state: r.state,
    request: JSON.parse(r.request) as CreatePostRequest,
    batchId: r.batch_id,
    itemKey: r.item_key,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at,
    result: r.result ? (JSON.parse(r.result) as OutboxResult) : null,
    error: r.error ? (JSON.parse(r.error) as OutboxFailure) : null,
    retryOf: r.retry_of ? (JSON.parse(r.retry_of) as RetryOf) : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One scope's entries in the store: the rows, the moves between states, and who hears of each change. */
export interface OutboxTable {
  readonly db: Db;
  readonly scope: string;
  /** This instance, as written in `owner` of the rows it is sending. */
  readonly owner: string;
  readonly now: () => number;
  readonly iso: () => string;
  get(id: string): Row | undefined;
  /** The newest entry (not refused) that makes this failed delivery again. */
  retryOfRow(deliveryId: string): Row | undefined;
  /** This scope's entries in one state, oldest first. */
  rowsIn(state: OutboxState): Row[];
  /** Moves an entry from one state to another; false when it was not in `from` (someone else moved it). */
  move(id: string, from: OutboxState | OutboxState[], to: OutboxState, set?: Partial<Row>): boolean;
  /** Takes back entries a dead owner left in `sending`: a bulk one to `pending`, a single one that left to `unconfirmed`. */
  recoverStale(): void;
  /** Every post id an entry of this scope was confirmed as. */
  claimedPostIds(): Set<string>;
  /** How many entries of this scope are in each state. */
  counts(): FlushReport;
  /**
   * Writes a new pending entry and tells of it. With `retryOf`: one entry per failed delivery, looked up and written
   * in one transaction, so two clicks (or two processes) asking at once make it once; the second gets the first's id.
   */
  insert(kind: OutboxKind, req: CreatePostRequest, retryOf: RetryOf | null): string;
  /** Every failed delivery retried and confirmed, by the id of each delivery its retry made. */
  retried(): Map<string, RetryOf>;
  /** This scope's entries in these states, newest first. */
  list(states: readonly OutboxState[], limit: number): Row[];
  /** Entries still being worked on: pending, sending or unconfirmed. */
  unfinishedCount(): number;
  /** Deletes an entry not being sent right now; false when there is no such entry. */
  discard(id: string): boolean;
  emit(id: string): void;
  onDidChange(listener: (entry: OutboxEntry) => void): Disposable;
}

export function openOutboxTable(store: Store, scope: string, now: () => number, log: Logger): OutboxTable {
  store.migrate(OUTBOX_NAMESPACE, OUTBOX_MIGRATIONS);
  const db = store.db;
  const owner = `${HOST}|${process.pid}|${randomUUID()}`;
  liveOwners.add(owner);
  // A listener's failure must not break the queue.
  const changes = new Emitter<OutboxEntry>((error) =>
    log.warn('an outbox listener failed', { error: errorText(error) }),
  );
  const iso = () => new Date(now()).toISOString();
  const getRow = db.prepare<[string], Row>('SELECT * FROM outbox_entries WHERE id = ?');
  const retryOfRow = db.prepare<[string, string], Row>(
    `SELECT * FROM outbox_entries WHERE scope = ? AND json_extract(retry_of, '$.delivery_id') = ?
       AND retry_of IS NOT NULL AND state != 'failed' ORDER BY created_at DESC LIMIT 1`,
  );
  const rowsIn = db.prepare<[string, string], Row>(
    'SELECT * FROM outbox_entries WHERE scope = ? AND state = ? ORDER BY created_at, rowid',
  );

  const emit = (id: string): void => {
    const r = getRow.get(id);
    if (r) changes.fire(toEntry(r));
  };

  const move: OutboxTable['move'] = (id, from, to, set = {}) => {
    const froms = Array.isArray(from) ? from : [from];
    const cols = Object.keys(set);
    const sql =
      `UPDATE outbox_entries SET state = @to, updated_at = @updated_at` +
      cols.map((c) => `, ${c} = @${c}`).join('') +
      ` WHERE id = @id AND state IN (${froms.map((_, i) => `@from${i}`).join(', ')})`;
    const params: Record<string, unknown> = { ...set, to, id, updated_at: iso() };
    froms.forEach((f, i) => (params[`from${i}`] = f));
    const changed = db.prepare(sql).run(params).changes > 0;
    if (changed) emit(id);
    return changed;
  };

  return {
    ...outboxReads(db, scope),
    db,
    scope,
    owner,
    now,
    iso,
    get: (id) => getRow.get(id),
    retryOfRow: (deliveryId) => retryOfRow.get(scope, deliveryId),
    rowsIn: (state) => rowsIn.all(scope, state),
    move,
    recoverStale() {
      const t = now();
      db.transaction(() => {
        for (const r of rowsIn.all(scope, 'sending')) {
          if (!ownerGone(r.owner, r.updated_at, t)) continue;
          // A bulk send is idempotent: send it again. A single send that may have left must be reconciled first.
          if (r.kind === 'single' && r.sent_at !== null)
            move(r.id, 'sending', 'unconfirmed', { owner: null });
          else move(r.id, 'sending', 'pending', { owner: null, next_attempt_at: t });
        }
      }).immediate();
    },
    insert(kind, req, retryOf) {
      const id = randomUUID();
      const t = iso();
      const entryId = db
        .transaction((): string => {
          const earlier = retryOf ? retryOfRow.get(scope, retryOf.delivery_id) : undefined;
          if (earlier) return earlier.id;
          db.prepare(
            `INSERT INTO outbox_entries (id, scope, kind, request, batch_id, item_key, state, attempts, next_attempt_at,
                                         retry_of, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)`,
          ).run(
            id,
            scope,
            kind,
            JSON.stringify(req),
            kind === 'bulk' ? randomUUID() : null,
            kind === 'bulk' ? id : null,
            retryOf ? JSON.stringify(retryOf) : null,
            t,
            t,
          );
          return id;
        })
        .immediate();
      if (entryId === id) emit(id);
      return entryId;
    },
    discard(id) {
      return (
        db
          .prepare(
            `DELETE FROM outbox_entries WHERE id = ? AND state IN ('pending', 'failed', 'sent', 'needs_decision')`,
          )
          .run(id).changes > 0
      );
    },
    emit,
    onDidChange: (listener) => changes.event(listener),
  };
}

/** What the outbox reads of one scope's entries without changing them: counts, listings, the confirmed retries. */
function outboxReads(
  db: Db,
  scope: string,
): Pick<OutboxTable, 'claimedPostIds' | 'counts' | 'retried' | 'list' | 'unfinishedCount'> {
  return {
    claimedPostIds() {
      const rows = db
        .prepare<[string], { result: string }>(
          `SELECT result FROM outbox_entries WHERE scope = ? AND result IS NOT NULL`,
        )
        .all(scope);
      return new Set(rows.map((r) => (JSON.parse(r.result) as OutboxResult).postId));
    },
    counts() {
      const rows = db
        .prepare<[string], { state: OutboxState; n: number }>(
          'SELECT state, COUNT(*) AS n FROM outbox_entries WHERE scope = ? GROUP BY state',
        )
        .all(scope);
      const c = Object.fromEntries(rows.map((r) => [r.state, r.n])) as Partial<Record<OutboxState, number>>;
      return {
        sent: c.sent ?? 0,
        failed: c.failed ?? 0,
        unconfirmed: c.unconfirmed ?? 0,
        needsDecision: c.needs_decision ?? 0,
        pending: (c.pending ?? 0) + (c.sending ?? 0),
        blocked: null,
      };
    },
    retried() {
      const out = new Map<string, RetryOf>();
      const rows = db
        .prepare<[string], { result: string; retry_of: string }>(
          `SELECT result, retry_of FROM outbox_entries
         WHERE scope = ? AND retry_of IS NOT NULL AND state = 'sent' AND result IS NOT NULL`,
        )
        .all(scope);
      for (const r of rows) {
        const of = JSON.parse(r.retry_of) as RetryOf;
        for (const id of (JSON.parse(r.result) as OutboxResult).socialPostIds) out.set(id, of);
      }
      return out;
    },
    list(states, limit) {
      return db
        .prepare<unknown[], Row>(
          `SELECT * FROM outbox_entries WHERE scope = ? AND state IN (${states.map(() => '?').join(', ')})
         ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        )
        .all(scope, ...states, limit);
    },
    unfinishedCount() {
      return (
        db
          .prepare<[string], { n: number }>(
            `SELECT COUNT(*) AS n FROM outbox_entries WHERE scope = ? AND state IN ('pending', 'sending', 'unconfirmed')`,
          )
          .get(scope)?.n ?? 0
      );
    },
  };
}
