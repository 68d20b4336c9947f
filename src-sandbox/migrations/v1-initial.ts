import type Database from 'better-sqlite3';

/**
 * Version 1: the schema as it stood when the sandbox's store took numbered migrations. Frozen: a later change
 * is a new migration, never an edit here. Every statement says IF NOT EXISTS, so this step also adopts a store
 * written by an older, unversioned build (`user_version` 0) whose tables already exist.
 *
 * Times are ISO strings from `Date.toISOString()`, so they compare correctly as text. Every owned row carries
 * `owner_id` and every lookup filters on it: that is what makes a foreign id answer like a missing one.
 */
const SERVICE_TABLES = `
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

/** Automations and the runner protocol. */
const AGENT_TABLES = `
CREATE TABLE IF NOT EXISTS agent_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS agent_executors (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  name TEXT NOT NULL,
  agent_type TEXT NOT NULL,
  device_label TEXT,
  capabilities TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_seen_at TEXT
);
CREATE INDEX IF NOT EXISTS agent_executors_owner ON agent_executors (owner_id);

CREATE TABLE IF NOT EXISTS agent_automations (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  execution_mode TEXT NOT NULL,
  queue TEXT NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  instructions TEXT NOT NULL,
  skill TEXT,
  targets TEXT NOT NULL,
  executor_id TEXT,
  revision INTEGER NOT NULL,
  acked_revision INTEGER,
  acked_by TEXT,
  acked_at TEXT,
  -- legacy queue: every occurrence up to this instant has been turned into a run (or passed over)
  scheduled_through TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_automations_owner ON agent_automations (owner_id);

CREATE TABLE IF NOT EXISTS agent_runs (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  automation_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  queue TEXT NOT NULL,
  state TEXT NOT NULL,
  scheduled_for TEXT,
  idempotency_key TEXT NOT NULL,
  executor_id TEXT,
  started_at TEXT,
  finished_at TEXT,
  error TEXT,
  claim_token_hash TEXT,
  claimed_at TEXT,
  lease_seconds INTEGER,
  lease_expires_at TEXT,
  lease_expiries INTEGER NOT NULL DEFAULT 0,
  output TEXT,
  result TEXT,
  metadata TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (automation_id, idempotency_key)
);
CREATE INDEX IF NOT EXISTS agent_runs_owner_state ON agent_runs (owner_id, state, scheduled_for);
CREATE INDEX IF NOT EXISTS agent_runs_lease ON agent_runs (state, lease_expires_at);

CREATE TABLE IF NOT EXISTS agent_run_tokens (
  token_hash TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_run_tokens_run ON agent_run_tokens (run_id);

CREATE TABLE IF NOT EXISTS agent_run_events (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  run_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  step_id TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT,
  metadata TEXT,
  executor_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_run_events_run ON agent_run_events (run_id, seq);

CREATE TABLE IF NOT EXISTS agent_direct_uploads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  social_account_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  content_length INTEGER NOT NULL,
  content_sha256 TEXT NOT NULL,
  content_md5 TEXT,
  state TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  received_at TEXT,
  processing_until TEXT,
  status_reads INTEGER NOT NULL DEFAULT 0,
  published_at TEXT,
  platform_post_id TEXT,
  error TEXT,
  object_path TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_direct_uploads_run ON agent_direct_uploads (run_id, social_account_id);
CREATE INDEX IF NOT EXISTS agent_direct_uploads_state ON agent_direct_uploads (state);
`;

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

export function initialSchema(db: Database.Database): void {
  const migrateMedia = mediaTableBeforeObjectKeys(db);
  db.exec(SERVICE_TABLES);
  migrateMedia?.();
  db.exec(AGENT_TABLES);
}
