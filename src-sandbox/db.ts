import Database from 'better-sqlite3';
import { join } from 'node:path';
import { migrate } from './migrations/migrate';

/**
 * Opens (creating if needed) `dataDir/sandbox.db` and brings its schema up to this build's version
 * (migrations/migrate.ts). A store newer than this build is refused rather than misread.
 */
export function openDatabase(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'sandbox.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
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
