import type { Migration } from '../store/store';

export const DELIVERIES_NAMESPACE = 'deliveries';

/**
 * One row per delivery per service (`scope`). Times are also kept as epoch ms: the service's ISO texts
 * vary in precision, so they do not sort as text. `seq` breaks ties the way the service's list does
 * (later learned = newer). `learned` marks a row pieced together from a bulk answer and the request we
 * sent, replaced as soon as the service's own record arrives. `deliveries_removed` keeps deleted ids
 * (never reused) so that an answer already in flight cannot bring a deleted row back.
 */
export const DELIVERIES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE deliveries (
           scope TEXT NOT NULL,
           id TEXT NOT NULL,
           post_id TEXT NOT NULL,
           status TEXT NOT NULL,
           platform TEXT NOT NULL,
           social_account_id TEXT NOT NULL,
           caption TEXT NOT NULL,
           scheduled_at TEXT,
           published_at TEXT,
           last_error TEXT,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL,
           created_ms INTEGER NOT NULL,
           updated_ms INTEGER NOT NULL,
           when_ms INTEGER,
           seen_ms INTEGER NOT NULL,
           learned INTEGER NOT NULL DEFAULT 0,
           seq INTEGER NOT NULL,
           raw TEXT NOT NULL,
           PRIMARY KEY (scope, id)
         ) WITHOUT ROWID;
         CREATE INDEX deliveries_newest ON deliveries (scope, created_ms DESC, seq DESC);
         CREATE INDEX deliveries_status_newest ON deliveries (scope, status, created_ms DESC, seq DESC);
         CREATE INDEX deliveries_platform_newest ON deliveries (scope, platform, created_ms DESC, seq DESC);
         CREATE INDEX deliveries_when ON deliveries (scope, when_ms, seq);
         CREATE INDEX deliveries_status_when ON deliveries (scope, status, when_ms, seq);
         CREATE INDEX deliveries_post ON deliveries (scope, post_id);
         CREATE INDEX deliveries_seq ON deliveries (seq);
         CREATE TABLE deliveries_removed (
           scope TEXT NOT NULL,
           id TEXT NOT NULL,
           removed_at TEXT NOT NULL,
           PRIMARY KEY (scope, id)
         ) WITHOUT ROWID;`,
  },
  {
    // An export reads the matching post ids first, newest post first (delivery-index.ts `postIdsOf`). With only
    // (scope, post_id) it fetched every delivery's row, JSON and all, for its `created_ms` and filter columns:
    // most of a 10,000-delivery export's time. Holding those columns, the index alone answers it.
    version: 2,
    up: `DROP INDEX deliveries_post;
         CREATE INDEX deliveries_post ON deliveries (scope, post_id, created_ms, status, platform, when_ms);`,
  },
];
