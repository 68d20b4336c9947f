import type Database from 'better-sqlite3';

/**
 * Version 4: every delivery row counts its own changes. `rev` starts at 0 and a trigger adds one on each
 * UPDATE, whichever statement makes it, so `(seq, rev)` names one version of one row and a listing may
 * reuse the JSON it made for that version (posts/delivery-page.ts) without trusting any caller to say
 * that the row changed. (SQLite's recursive_triggers is off: the trigger's own UPDATE does not fire it.)
 */
export function deliveryRevisions(db: Database.Database): void {
  db.exec(`ALTER TABLE deliveries ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    CREATE TRIGGER IF NOT EXISTS deliveries_rev AFTER UPDATE ON deliveries FOR EACH ROW
    BEGIN
      UPDATE deliveries SET rev = OLD.rev + 1 WHERE rowid = NEW.rowid;
    END;`);
}
