/**
 * Tables of automations and the runner protocol. Times are ISO strings from `Date.toISOString()`, so
 * they compare correctly as text. Every row carries `owner_id`: lookups always filter on it, which
 * is what makes a foreign id indistinguishable from a missing one.
 */
export const AGENT_SCHEMA_SQL = `
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
