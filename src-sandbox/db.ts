import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ensurePrivateFileSync, tightenFileSync } from '../src-main/core/files';
import { migrate } from './migrations/migrate';

/**
 * Opens (creating if needed) `dataDir/sandbox.db` and brings its schema up to this build's version
 * (migrations/migrate.ts). A store newer than this build is refused rather than misread. Without
 * `persistent` (no `--data`: everything is removed on exit anyway) the store lives in memory, so a test's
 * sandbox never waits on the disk.
 */
export function openDatabase(dataDir: string, opts: { persistent: boolean }): Database.Database {
  const file = join(dataDir, 'sandbox.db');
  // Made 0600 before SQLite opens it: SQLite gives its WAL and SHM the database file's mode.
  if (opts.persistent) ensurePrivateFileSync(file);
  const db = new Database(opts.persistent ? file : ':memory:');
  db.pragma('journal_mode = WAL');
  if (opts.persistent) for (const extra of ['-wal', '-shm']) tightenFileSync(`${file}${extra}`);
  // No fsync, not even at checkpoints: a sandbox's data is not worth a stall in the middle of a test, and
  // WAL still keeps every committed transaction across a killed process (only an OS crash may lose the tail).
  db.pragma('synchronous = OFF');
  db.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): a bulk's index pages stay in memory as the store grows.
  db.pragma('cache_size = -65536');
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

/** `map`'s value for `key`, made and kept the first time it is asked for: each per-database cache below. */
function memo<K, V>(map: { get(k: K): V | undefined; set(k: K, v: V): unknown }, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

const transactions = new WeakMap<Database.Database, (fn: () => unknown) => unknown>();

/**
 * Runs `fn` in one transaction (a savepoint inside another). `db.transaction(fn)` builds four wrapper
 * functions each time it is called, which cost a create request more than its own inserts: the wrapper is
 * built once per database and handed the work to do.
 */
export function transact<T>(db: Database.Database, fn: () => T): T {
  const run = memo(transactions, db, () => db.transaction((work: () => unknown) => work()));
  return run(fn) as T;
}

const keptByTable = new WeakMap<Database.Database, Map<string, Map<string, unknown>>>();
const KEPT_READS = 1000;

/**
 * What was read from `table`, kept for the next request that reads the same: for tables written only when a
 * fixture is loaded (keys, accounts) but read by nearly every request. A temporary trigger (this
 * connection's own, never stored in the file) empties the map on any write to the table, whichever code
 * makes it, so what is kept is never older than the store. Bounded: it is emptied when full.
 */
export function keptReads<V>(db: Database.Database, table: string): Map<string, V> {
  const byTable = memo(keptByTable, db, () => new Map<string, Map<string, unknown>>());
  const kept = memo(byTable, table, () => {
    const map = new Map<string, unknown>();
    const fn = `sandbox_${table}_written`;
    db.function(fn, { deterministic: false }, () => {
      map.clear();
      return null;
    });
    const body = `ON main.${table} BEGIN SELECT ${fn}(); END`;
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS ${table}_kept_insert AFTER INSERT ${body};
      CREATE TEMP TRIGGER IF NOT EXISTS ${table}_kept_update AFTER UPDATE ${body};
      CREATE TEMP TRIGGER IF NOT EXISTS ${table}_kept_delete AFTER DELETE ${body};`);
    return map;
  });
  if (kept.size >= KEPT_READS) kept.clear();
  return kept as Map<string, V>;
}

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database. */
export function stmt(db: Database.Database, sql: string): Database.Statement {
  const byDb = memo(cache, db, () => new Map<string, Database.Statement>());
  return memo(byDb, sql, () => db.prepare(sql));
}

const insertSql = new WeakMap<readonly string[], Map<string, string>>();

/**
 * Inserts rows given as one flat list of values (row after row, each one value per column in `columns`
 * order) with as few statements as possible: one per power of two in their count (200 rows: 128 + 64 + 8),
 * so a handful of statement shapes are ever prepared. Most of what one single-row INSERT costs besides
 * SQLite's own work is the call into it: a bulk's 400 rows in a dozen statements instead of 400.
 *
 * Binding a value costs about as much as SQLite's work on it, and many columns hold one value in every row
 * (the owner, the request's time, a null): such a column is bound once, as a named parameter every row of the
 * statement names, rather than once per row. A bulk binds about 3,300 values instead of 5,600 (docs/sandbox.md).
 */
export function insertRows(
  db: Database.Database,
  table: string,
  columns: readonly string[],
  values: readonly unknown[],
): void {
  const width = columns.length;
  const rows = values.length / width;
  if (rows === 0) return;
  const byShape = memo(insertSql, columns, () => new Map<string, string>());
  // Which columns hold one value in every row (none when there is one row: nothing is saved).
  const same: boolean[] = columns.map(() => rows > 1);
  for (let c = 0; c < width; c++) {
    const first = values[c];
    for (let at = c + width; same[c] && at < values.length; at += width) same[c] = values[at] === first;
  }
  const shared: Record<string, unknown> = {};
  let sharedKey = '';
  for (let c = 0; c < width; c++) {
    if (!same[c]) continue;
    shared[`c${c}`] = values[c];
    sharedKey += `${c},`;
  }
  const varying = sharedKey === '' ? null : values.filter((_, i) => !same[i % width]);
  const rowWidth = varying ? width - Object.keys(shared).length : width;
  const bound = varying ?? values;
  let at = 0;
  while (at < rows) {
    let n = 1;
    while (n * 2 <= rows - at) n *= 2;
    const key = `${table}:${n}:${sharedKey}`;
    const sql = memo(byShape, key, () => {
      const one = `(${columns.map((_, c) => (same[c] ? `@c${c}` : '?')).join(', ')})`;
      return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => one).join(', ')}`;
    });
    const slice = n === rows ? bound : bound.slice(at * rowWidth, (at + n) * rowWidth);
    if (varying) stmt(db, sql).run(slice, shared);
    else stmt(db, sql).run(slice);
    at += n;
  }
}

/** Tables whose rows carry a `seq` from nextSeq(). */
const SEQ_TABLES = ['accounts', 'posts', 'deliveries', 'articles', 'skills', 'skill_versions'] as const;
const sequences = new WeakMap<Database.Database, { last: number }>();

/**
 * A monotonically increasing sequence number (ordering rows created within the same millisecond). Kept in
 * memory: a write per number cost a bulk of 100 posts 300 writes. It starts above every `seq` the store holds
 * (and the counter older builds kept in `meta`), so a number is never issued twice to rows that exist; one
 * issued in a transaction that rolled back is simply skipped.
 */
export function nextSeq(db: Database.Database): number {
  let seq = sequences.get(db);
  if (!seq) {
    const held = SEQ_TABLES.map(
      (t) => (db.prepare(`SELECT COALESCE(MAX(seq), 0) AS n FROM ${t}`).get() as { n: number }).n,
    );
    seq = { last: Math.max(Number(metaGet(db, 'seq') ?? 0), ...held) };
    sequences.set(db, seq);
  }
  seq.last += 1;
  return seq.last;
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
