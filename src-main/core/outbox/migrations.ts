import type { Migration } from '../store/store';

export const OUTBOX_NAMESPACE = 'outbox';

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
];
