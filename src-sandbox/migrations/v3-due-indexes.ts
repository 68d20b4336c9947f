import type Database from 'better-sqlite3';

/**
 * Version 3: an index for the pending uploads that fall due, so the due-work check (due-before-read.ts) and
 * the expiry of upload addresses read only those rows instead of the whole media table.
 */
export function dueIndexes(db: Database.Database): void {
  db.exec(`CREATE INDEX IF NOT EXISTS media_pending_expiry ON media_assets (status, upload_expires_at)
    WHERE bytes_received = 0`);
}
