import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { ensurePrivateDirSync, ensurePrivateFileSync, tightenFileSync } from '../files';

export type Db = Database.Database;

export interface Migration {
  readonly version: number;
  /** SQL (may hold several statements) or a function; each runs in its own transaction with its version bump. */
  readonly up: string | ((db: Db) => void);
}

export interface SettingsTable {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  all(): Record<string, unknown>;
}

export interface Store {
  /** The better-sqlite3 handle, for modules that keep their own tables (media, bulk, executor). */
  readonly db: Db;
  readonly file: string;
  /** Applies the not yet applied migrations of a namespace, in order; returns the namespace's version. */
  migrate(namespace: string, migrations: readonly Migration[]): number;
  version(namespace: string): number;
  readonly settings: SettingsTable;
  close(): void;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

const SETTINGS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE settings (
           key TEXT PRIMARY KEY,
           value TEXT NOT NULL,
           updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
         )`,
  },
];

/**
 * Opens (creating if needed) the local SQLite store: WAL so the CLI, the app and the executor can share it, a busy
 * timeout so they wait for each other instead of failing, and per-namespace versioned migrations.
 */
export function openStore(file: string): Store {
  if (file !== ':memory:') {
    ensurePrivateDirSync(dirname(file));
    // SQLite gives its WAL and SHM the database file's mode, so a private database keeps them private.
    ensurePrivateFileSync(file);
    tightenFileSync(`${file}-wal`);
    tightenFileSync(`${file}-shm`);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS schema_versions (
             namespace TEXT PRIMARY KEY,
             version INTEGER NOT NULL,
             updated_at TEXT NOT NULL
           )`);

  const versionStmt = db.prepare<[string], { version: number }>(
    'SELECT version FROM schema_versions WHERE namespace = ?',
  );
  const setVersionStmt = db.prepare<[string, number, string]>(
    `INSERT INTO schema_versions (namespace, version, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(namespace) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`,
  );
  const version = (namespace: string): number => versionStmt.get(namespace)?.version ?? 0;

  function migrate(namespace: string, migrations: readonly Migration[]): number {
    if (!/^[a-z][a-z0-9_-]*$/.test(namespace)) throw new MigrationError(`bad namespace name "${namespace}"`);
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    sorted.forEach((m, i) => {
      if (!Number.isInteger(m.version) || m.version < 1 || (i > 0 && sorted[i - 1]?.version === m.version)) {
        throw new MigrationError(`${namespace}: migration versions must be distinct positive integers`);
      }
    });
    const latest = sorted.at(-1)?.version ?? 0;
    const current = version(namespace);
    if (current > latest) {
      throw new MigrationError(
        `${namespace}: the store is at version ${current}, newer than this build knows (${latest}); update Postdesk`,
      );
    }
    for (const m of sorted) {
      // IMMEDIATE takes the write lock first, so two processes opening the store cannot apply a step twice.
      db.transaction(() => {
        if (version(namespace) >= m.version) return;
        if (typeof m.up === 'string') db.exec(m.up);
        else m.up(db);
        setVersionStmt.run(namespace, m.version, new Date().toISOString());
      }).immediate();
    }
    return version(namespace);
  }

  migrate('settings', SETTINGS_MIGRATIONS);
  const getStmt = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const setStmt = db.prepare<[string, string, string]>(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const delStmt = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  const allStmt = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');

  const settings: SettingsTable = {
    get(key) {
      const row = getStmt.get(key);
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    set(key, value) {
      setStmt.run(key, JSON.stringify(value), new Date().toISOString());
    },
    delete(key) {
      delStmt.run(key);
    },
    all() {
      return Object.fromEntries(allStmt.all().map((r) => [r.key, JSON.parse(r.value) as unknown]));
    },
  };

  return {
    db,
    file,
    migrate,
    version,
    settings,
    close() {
      if (db.open) db.close();
    },
  };
}
