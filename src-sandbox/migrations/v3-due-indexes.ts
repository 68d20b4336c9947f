import type Database from 'better-sqlite3';

/**
 * Version 3: indexes for reads every request makes. Pending uploads by expiry, so the due-work check
 * (due-before-read.ts) and the expiry of upload addresses read only those rows; a post's deliveries in `seq`
 * order, so reading them back after a write needs no sort; and due deliveries indexed only while they are
 * waiting (scheduled or retrying), so a draft or a published delivery costs no entry there.
 */
export function dueIndexes(db: Database.Database): void {
  db.exec(`CREATE INDEX IF NOT EXISTS media_pending_expiry ON media_assets (status, upload_expires_at)
      WHERE bytes_received = 0;
    DROP INDEX IF EXISTS deliveries_post;
    CREATE INDEX IF NOT EXISTS deliveries_post_seq ON deliveries (post_id, seq);
    DROP INDEX IF EXISTS deliveries_due;
    CREATE INDEX IF NOT EXISTS deliveries_due_pending ON deliveries (status, next_attempt_at)
      WHERE status IN ('scheduled', 'retry_scheduled');`);
}
