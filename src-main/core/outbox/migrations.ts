import type { Migration } from '../store/store';

export const OUTBOX_NAMESPACE = 'outbox';

const COLUMNS_V1 = `id, scope, kind, request, batch_id, item_key, state, attempts, next_attempt_at, sent_at,
                    known_post_ids, owner, result, error, created_at, updated_at`;

export const OUTBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE outbox_entries (
           id TEXT PRIMARY KEY,
           scope TEXT NOT NULL,
           kind TEXT NOT NULL CHECK (kind IN ('bulk', 'single')),
           request TEXT NOT NULL,
           batch_id TEXT,
           item_key TEXT,
           state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'unconfirmed', 'failed')),
           attempts INTEGER NOT NULL DEFAULT 0,
           next_attempt_at INTEGER NOT NULL DEFAULT 0,
           sent_at INTEGER,
           known_post_ids TEXT,
           owner TEXT,
           result TEXT,
           error TEXT,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL
         );
         CREATE INDEX outbox_entries_state ON outbox_entries (scope, state, next_attempt_at);`,
  },
  {
    // `needs_decision`: a publish the lists can neither find nor rule out waits for a person. `fence_at`: the newest
    // created_at the service showed before the send. SQLite cannot alter a CHECK, so the table is rebuilt. The states
    // are OUTBOX_STATES (outbox-types.ts): test/unit/core/outbox/states-check.test.ts reads this CHECK back and compares.
    version: 2,
    up: `CREATE TABLE outbox_entries_v2 (
           id TEXT PRIMARY KEY,
           scope TEXT NOT NULL,
           kind TEXT NOT NULL CHECK (kind IN ('bulk', 'single')),
           request TEXT NOT NULL,
           batch_id TEXT,
           item_key TEXT,
           state TEXT NOT NULL
             CHECK (state IN ('pending', 'sending', 'sent', 'unconfirmed', 'needs_decision', 'failed')),
           attempts INTEGER NOT NULL DEFAULT 0,
           next_attempt_at INTEGER NOT NULL DEFAULT 0,
           sent_at INTEGER,
           known_post_ids TEXT,
           fence_at INTEGER,
           owner TEXT,
           result TEXT,
           error TEXT,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL
         );
         INSERT INTO outbox_entries_v2 (${COLUMNS_V1})
           SELECT ${COLUMNS_V1} FROM outbox_entries ORDER BY rowid;
         DROP TABLE outbox_entries;
         ALTER TABLE outbox_entries_v2 RENAME TO outbox_entries;
         CREATE INDEX outbox_entries_state ON outbox_entries (scope, state, next_attempt_at);`,
  },
  {
    // Changes to posts that already exist, recorded as their results (an absolute time per post) before a byte is
    // sent: a run killed or answered by silence is finished from here, never computed again from moved times.
    version: 3,
    up: `CREATE TABLE outbox_changes (
           id TEXT PRIMARY KEY,
           scope TEXT NOT NULL,
           intent TEXT NOT NULL,
           state TEXT NOT NULL CHECK (state IN ('open', 'settled', 'reported')),
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL
         );
         CREATE INDEX outbox_changes_intent ON outbox_changes (scope, intent, state);
         CREATE TABLE outbox_change_items (
           change_id TEXT NOT NULL REFERENCES outbox_changes (id) ON DELETE CASCADE,
           seq INTEGER NOT NULL,
           post_id TEXT NOT NULL,
           request TEXT NOT NULL,
           before TEXT,
           state TEXT NOT NULL CHECK (state IN ('pending', 'unknown', 'done', 'failed')),
           error TEXT,
           code TEXT,
           attempts INTEGER NOT NULL DEFAULT 0,
           PRIMARY KEY (change_id, seq)
         );`,
  },
  {
    // A create that makes a failed delivery again: which one, and why it failed, kept with the new delivery's history.
    version: 4,
    up: `ALTER TABLE outbox_entries ADD COLUMN retry_of TEXT;
         CREATE INDEX outbox_entries_retry_of ON outbox_entries (scope, json_extract(retry_of, '$.delivery_id'))
           WHERE retry_of IS NOT NULL;`,
  },
];
