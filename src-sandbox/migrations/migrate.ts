import type Database from 'better-sqlite3';
import { initialSchema } from './v1-initial';
import { runDeliveries } from './v2-run-deliveries';
import { dueIndexes } from './v3-due-indexes';
import { deliveryRevisions } from './v4-delivery-revisions';
import { oauthTables } from './v5-oauth';

export interface Migration {
  /** 1, 2, 3…: the store's `PRAGMA user_version` once this step has run. */
  readonly version: number;
  /** What the step changes, for the error when it fails. */
  readonly name: string;
  readonly up: (db: Database.Database) => void;
}

/**
 * The sandbox's schema, step by step. Append only: a released step is never edited, since a `--data` store
 * made by an older build replays exactly the steps it has not run yet.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'the schema before versioning', up: initialSchema },
  { version: 2, name: 'posts know their run; direct uploads become posted deliveries', up: runDeliveries },
  { version: 3, name: "indexes for due work and for a post's deliveries", up: dueIndexes },
  { version: 4, name: 'deliveries count their changes', up: deliveryRevisions },
  { version: 5, name: 'OAuth clients, codes and tokens for the MCP server', up: oauthTables },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

export class StoreVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreVersionError';
  }
}

/**
 * Brings the store to SCHEMA_VERSION, as the client's store does (src-main/core/store): each step and its
 * version bump in one IMMEDIATE transaction, so a crash or a second process never leaves half a step. The
 * version is SQLite's own `user_version`, 0 in a new file and in stores of builds before versioning.
 * Returns the version the store had.
 */
export function migrate(db: Database.Database): number {
  const versionOf = (): number => Number(db.pragma('user_version', { simple: true }));
  const before = versionOf();
  if (before > SCHEMA_VERSION) {
    throw new StoreVersionError(
      `the sandbox store is at schema version ${before}, newer than this build knows (${SCHEMA_VERSION}); use a newer Postdesk or another --data directory`,
    );
  }
  for (const step of MIGRATIONS) {
    db.transaction(() => {
      if (versionOf() >= step.version) return;
      try {
        step.up(db);
      } catch (err) {
        throw new StoreVersionError(
          `the sandbox store could not be upgraded to version ${step.version} (${step.name}): ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return before;
}
