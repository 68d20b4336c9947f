import { randomUUID } from 'node:crypto';
import type { Migration, Store } from '../store/store';
import { ComposeDraftContent } from '../../../src-shared/ipc/compose';

export const COMPOSE_DRAFTS_NAMESPACE = 'compose_drafts';

/**
 * Posts being written, per connection (`scope`, as the delivery index and the uploads use it), and which one
 * the composer shows (`compose_current`; no row or a null id: a fresh post).
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE compose_drafts (
           scope TEXT NOT NULL,
           id TEXT NOT NULL,
           content TEXT NOT NULL,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL,
           PRIMARY KEY (scope, id)
         ) WITHOUT ROWID;
         CREATE INDEX compose_drafts_newest ON compose_drafts (scope, updated_at DESC);
         CREATE TABLE compose_current (
           scope TEXT PRIMARY KEY,
           draft_id TEXT
         ) WITHOUT ROWID;`,
  },
];

export interface DraftRecord {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly content: ComposeDraftContent;
}

export interface DraftStore {
  /** Keeps `content` under `id` (a new draft when null or unknown) and makes it the current one. */
  save(scope: string, id: string | null, content: ComposeDraftContent): DraftRecord;
  current(scope: string): DraftRecord | null;
  /** Makes a kept draft current; null when there is no such draft. */
  open(scope: string, id: string): DraftRecord | null;
  /** No draft is current: the next save starts a new one. */
  startNew(scope: string): void;
  /** Newest first. */
  list(scope: string, limit?: number): DraftRecord[];
  discard(scope: string, id: string): boolean;
  has(scope: string, id: string): boolean;
  count(scope: string): number;
}

interface Row {
  id: string;
  content: string;
  created_at: string;
  updated_at: string;
}

/** A row whose content no longer parses (written by a later build, say) is left out rather than failing the list. */
function toRecord(r: Row | undefined): DraftRecord | null {
  if (!r) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.content);
  } catch {
    return null;
  }
  const content = ComposeDraftContent.safeParse(parsed);
  return content.success
    ? { id: r.id, createdAt: r.created_at, updatedAt: r.updated_at, content: content.data }
    : null;
}

export function openDraftStore(store: Store, clock: () => Date = () => new Date()): DraftStore {
  store.migrate(COMPOSE_DRAFTS_NAMESPACE, MIGRATIONS);
  const db = store.db;
  const byId = db.prepare<[string, string], Row>(
    'SELECT id, content, created_at, updated_at FROM compose_drafts WHERE scope = ? AND id = ?',
  );
  const upsert = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO compose_drafts (scope, id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(scope, id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
  );
  const setCurrent = db.prepare<[string, string | null]>(
    `INSERT INTO compose_current (scope, draft_id) VALUES (?, ?)
     ON CONFLICT(scope) DO UPDATE SET draft_id = excluded.draft_id`,
  );
  const getCurrent = db.prepare<[string], { draft_id: string | null }>(
    'SELECT draft_id FROM compose_current WHERE scope = ?',
  );
  const listStmt = db.prepare<[string, number], Row>(
    `SELECT id, content, created_at, updated_at FROM compose_drafts WHERE scope = ?
     ORDER BY updated_at DESC, id LIMIT ?`,
  );
  const countStmt = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM compose_drafts WHERE scope = ?',
  );
  const del = db.prepare<[string, string]>('DELETE FROM compose_drafts WHERE scope = ? AND id = ?');
  const clearCurrentIf = db.prepare<[string, string]>(
    'UPDATE compose_current SET draft_id = NULL WHERE scope = ? AND draft_id = ?',
  );

  const save = db.transaction((scope: string, id: string | null, content: ComposeDraftContent) => {
    const now = clock().toISOString();
    const existing = id === null ? undefined : byId.get(scope, id);
    const key = existing?.id ?? id ?? randomUUID();
    upsert.run(scope, key, JSON.stringify(content), existing?.created_at ?? now, now);
    setCurrent.run(scope, key);
    return toRecord(byId.get(scope, key)) as DraftRecord;
  });
  const discard = db.transaction((scope: string, id: string) => {
    clearCurrentIf.run(scope, id);
    return del.run(scope, id).changes > 0;
  });

  return {
    save: (scope, id, content) => save.immediate(scope, id, ComposeDraftContent.parse(content)),
    current(scope) {
      const id = getCurrent.get(scope)?.draft_id;
      return id ? toRecord(byId.get(scope, id)) : null;
    },
    open(scope, id) {
      const found = toRecord(byId.get(scope, id));
      if (found) setCurrent.run(scope, found.id);
      return found;
    },
    startNew(scope) {
      setCurrent.run(scope, null);
    },
    list: (scope, limit = 100) =>
      listStmt.all(scope, limit).flatMap((r) => {
        const rec = toRecord(r);
        return rec ? [rec] : [];
      }),
    discard: (scope, id) => discard.immediate(scope, id),
    has: (scope, id) => byId.get(scope, id) !== undefined,
    count: (scope) => countStmt.get(scope)?.n ?? 0,
  };
}
