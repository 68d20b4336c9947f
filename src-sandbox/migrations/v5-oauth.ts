import type Database from 'better-sqlite3';

/**
 * Version 5: OAuth 2.0 for the MCP server (docs/sandbox-agent.md, OAuth). Registered clients (RFC 7591),
 * authorization codes and tokens. Codes, secrets and tokens are stored as their sha256 only, as API keys are.
 * Every code and the tokens it leads to share a `grant_id`, so a reused code or refresh token revokes them
 * together; each names the API key its owner signed in with (`key_id`), so revoking or expiring that key
 * ends them. `IF NOT EXISTS` throughout: a store whose version was lowered by hand may have the tables.
 */
export function oauthTables(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS oauth_clients (
      client_id TEXT PRIMARY KEY,
      secret_hash TEXT,
      auth_method TEXT NOT NULL,
      client_name TEXT,
      redirect_uris TEXT NOT NULL,
      metadata TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS oauth_codes (
      code_hash TEXT PRIMARY KEY,
      grant_id TEXT NOT NULL,
      client_id TEXT NOT NULL,
      owner_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      redirect_uri TEXT NOT NULL,
      code_challenge TEXT NOT NULL,
      resource TEXT NOT NULL,
      scope TEXT,
      expires_at TEXT NOT NULL,
      used_at TEXT
    );
    CREATE TABLE IF NOT EXISTS oauth_tokens (
      token_hash TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
      grant_id TEXT NOT NULL,
      client_id TEXT NOT NULL,
      owner_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      resource TEXT NOT NULL,
      scope TEXT,
      expires_at TEXT NOT NULL,
      revoked INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens (grant_id);`);
}
