import Database from 'better-sqlite3';
import { join } from 'node:path';
import { AGENT_SCHEMA_SQL } from './agent/schema';

/**
 * The sandbox's tables (agent tables come from agent/schema.ts). Times are ISO strings from
 * `Date.toISOString()`, so they compare correctly as text. Every owned row carries `owner_id` and
 * every lookup filters on it: that is what makes a foreign id answer like a missing one.
 */
export const SANDBOX_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- storage_used_*: simulated usage from the fixture, added to the real objects for the media quotas.
CREATE TABLE IF NOT EXISTS owners (
  id TEXT PRIMARY KEY,
  storage_used_bytes INTEGER NOT NULL DEFAULT 0,
  storage_used_objects INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  token_expired INTEGER NOT NULL DEFAULT 0,
  publish_failures INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS accounts_owner ON accounts (owner_id);

CREATE TABLE IF NOT EXISTS posts (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  caption TEXT NOT NULL,
  title TEXT,
  media TEXT NOT NULL,
  source TEXT NOT NULL,
  batch_id TEXT,
  item_key TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS posts_owner ON posts (owner_id, seq);

CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY,
  post_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  social_account_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  settings TEXT NOT NULL,
  caption TEXT NOT NULL,
  status TEXT NOT NULL,
  scheduled_at TEXT,
  next_attempt_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  published_at TEXT,
  external_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_owner ON deliveries (owner_id, created_at, seq);
CREATE INDEX IF NOT EXISTS deliveries_post ON deliveries (post_id);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);

CREATE TABLE IF NOT EXISTS bulk_batches (
  owner_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (owner_id, batch_id)
);
CREATE TABLE IF NOT EXISTS bulk_items (
  owner_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  item_key TEXT NOT NULL,
  idx INTEGER NOT NULL,
  request_hash TEXT NOT NULL,
  status TEXT NOT NULL,
  post_id TEXT,
  social_post_ids TEXT NOT NULL,
  error TEXT,
  created_at TEXT NOT NULL
);
-- The idempotency guarantee: one row per batch item, whatever races.
CREATE UNIQUE INDEX IF NOT EXISTS bulk_items_key ON bulk_items (owner_id, batch_id, item_key);
CREATE INDEX IF NOT EXISTS bulk_items_order ON bulk_items (owner_id, batch_id, idx);

-- An asset_id is the owner's own (two owners may hold the same one); object_key, a random uuid,
-- names the stored object, the upload address and the public URL.
CREATE TABLE IF NOT EXISTS media_assets (
  id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  object_key TEXT NOT NULL UNIQUE,
  run_id TEXT,
  content_type TEXT NOT NULL,
  content_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  md5 TEXT NOT NULL,
  status TEXT NOT NULL,
  bytes_received INTEGER NOT NULL DEFAULT 0,
  upload_expires_at TEXT NOT NULL,
  metadata TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  PRIMARY KEY (owner_id, id)
);
CREATE INDEX IF NOT EXISTS media_owner_sha ON media_assets (owner_id, sha256, status);
CREATE INDEX IF NOT EXISTS media_owner_status ON media_assets (owner_id, status);

CREATE TABLE IF NOT EXISTS articles (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  title TEXT NOT NULL,
  body_markdown TEXT NOT NULL,
  tags TEXT NOT NULL,
  canonical_url TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS articles_owner ON articles (owner_id, created_at, seq);
CREATE TABLE IF NOT EXISTS article_targets (
  article_id TEXT NOT NULL,
  destination TEXT NOT NULL,
  status TEXT NOT NULL,
  url TEXT,
  error TEXT,
  published_at TEXT,
  PRIMARY KEY (article_id, destination)
);

CREATE TABLE IF NOT EXISTS skills (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS skill_versions (
  skill_id TEXT NOT NULL,
  version TEXT NOT NULL,
  markdown TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (skill_id, version)
);
`;

export function openDatabase(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'sandbox.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.transaction(() => {
    const migrateMedia = mediaTableBeforeObjectKeys(db);
    db.exec(SANDBOX_SCHEMA_SQL);
    migrateMedia?.();
  })();
  db.exec(AGENT_SCHEMA_SQL);
  return db;
}

/**
 * A store written before asset ids were per owner keys `media_assets` by `id` alone and names objects
 * by it. Its table is set aside (with its indexes, whose names the new table takes); the returned step,
 * run once the new table exists, copies the rows with `object_key = id`, so their files and URLs stay.
 */
function mediaTableBeforeObjectKeys(db: Database.Database): (() => void) | null {
  const columns = db.prepare(`SELECT name FROM pragma_table_info('media_assets')`).all() as {
    name: string;
  }[];
  if (columns.length === 0 || columns.some((c) => c.name === 'object_key')) return null;
  db.exec(`DROP INDEX IF EXISTS media_owner_sha; DROP INDEX IF EXISTS media_owner_status;
    ALTER TABLE media_assets RENAME TO media_assets_before_object_keys;`);
  return () => {
    const kept = columns.map((c) => `"${c.name.replaceAll('"', '""')}"`).join(', ');
    db.exec(`INSERT INTO media_assets (${kept}, object_key) SELECT ${kept}, id FROM media_assets_before_object_keys;
      DROP TABLE media_assets_before_object_keys;`);
  };
}

/** Tables `reset` keeps: `meta` holds the upload-signing secret and counters, not owner state. */
const KEPT_TABLES = new Set(['meta']);

/** Empties every table (the agent's too, whatever they are named) in one transaction. */
export function wipeDatabase(db: Database.Database): void {
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all() as { name: string }[];
  db.transaction(() => {
    for (const { name } of tables) {
      if (!KEPT_TABLES.has(name)) db.exec(`DELETE FROM "${name.replaceAll('"', '""')}"`);
    }
  })();
}

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database. */
export function stmt(db: Database.Database, sql: string): Database.Statement {
  let byDb = cache.get(db);
  if (!byDb) {
    byDb = new Map();
    cache.set(db, byDb);
  }
  let s = byDb.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byDb.set(sql, s);
  }
  return s;
}

/** A monotonically increasing sequence number (ordering rows created within the same millisecond). */
export function nextSeq(db: Database.Database): number {
  const row = stmt(
    db,
    `INSERT INTO meta (key, value) VALUES ('seq', '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
  ).get() as { value: string | number };
  return Number(row.value);
}

export function metaGet(db: Database.Database, key: string): string | null {
  const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function metaSet(db: Database.Database, key: string, value: string): void {
  stmt(
    db,
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
