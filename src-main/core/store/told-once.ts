import type { Db } from './store';

/**
 * The tables of something told once per service: what was told (by key), and when each service (`scope`) was first
 * looked at. The delivery watch and the inbox watch keep their own pair, under their own names.
 */
export interface ToldOnceTables {
  /** What was told: (scope, `key`, `at`). */
  readonly told: string;
  readonly key: string;
  readonly at: string;
  /** When each scope's first check was made: (scope, baseline_at). */
  readonly scopes: string;
}

/**
 * The SQL creating the two tables: a migration's, so its text must stay as it is for the tables already made
 * (a change of shape is a new migration of the namespace that uses it).
 */
export function toldOnceTablesSql(t: ToldOnceTables): string {
  return `CREATE TABLE ${t.told} (
           scope TEXT NOT NULL,
           ${t.key} TEXT NOT NULL,
           ${t.at} TEXT NOT NULL,
           PRIMARY KEY (scope, ${t.key})
         );
         CREATE TABLE ${t.scopes} (
           scope TEXT PRIMARY KEY,
           baseline_at TEXT NOT NULL
         );`;
}

export interface ToldOnce {
  /**
   * Records `items` as told in `scope` at `at`, in one transaction, and returns those not told before. The first
   * check of a scope is its baseline: it records what is there but returns nothing, so connecting to a service does
   * not announce its whole history at once.
   */
  record<T>(scope: string, items: Iterable<T>, keyOf: (item: T) => string, at: string): ToldNow<T>;
}

export interface ToldNow<T> {
  /** This was the scope's first check. */
  readonly baseline: boolean;
  /** The items to tell of now: not told before (none on the baseline). */
  readonly fresh: readonly T[];
}

export function toldOnce(db: Db, t: ToldOnceTables): ToldOnce {
  const hasBaseline = db.prepare<[string], { scope: string }>(
    `SELECT scope FROM ${t.scopes} WHERE scope = ?`,
  );
  const setBaseline = db.prepare<[string, string]>(
    `INSERT OR IGNORE INTO ${t.scopes} (scope, baseline_at) VALUES (?, ?)`,
  );
  const remember = db.prepare<[string, string, string]>(
    `INSERT OR IGNORE INTO ${t.told} (scope, ${t.key}, ${t.at}) VALUES (?, ?, ?)`,
  );
  return {
    record<T>(scope: string, items: Iterable<T>, keyOf: (item: T) => string, at: string): ToldNow<T> {
      const baseline = !hasBaseline.get(scope);
      const fresh: T[] = [];
      db.transaction(() => {
        if (baseline) setBaseline.run(scope, at);
        for (const item of items) {
          if (remember.run(scope, keyOf(item), at).changes > 0 && !baseline) fresh.push(item);
        }
      })();
      return { baseline, fresh };
    },
  };
}
