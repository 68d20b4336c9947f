import type { SandboxContext } from './context';
import { stmt } from './db';
import { STILL_SCHEDULED_SQL } from './posts/records';

/** Past every date the clock can show (clock.ts): "nothing is due". */
const NEVER = '9999-12-31T23:59:59.999Z';

/**
 * Settles due work (scheduled deliveries, expired upload addresses) before a request reads it, while the
 * clock follows real time and the 1 s tick may lag. Most requests find nothing due, and settling for each
 * one was per-request work that can be done once: it keeps the earliest time anything falls due and settles
 * only once the clock reaches it.
 *
 * That time only moves earlier when a row starts waiting: a delivery written as scheduled or retrying, an
 * upload address reserved. Temporary triggers (this connection's own, never stored in the file) report each
 * such row as it is written, whichever code writes it, so a write costs no query here; a draft or a posted
 * delivery reports nothing. A report from a transaction that then rolled back, or of a row since deleted,
 * only makes the next request look again.
 */
export function createDueBeforeRead(ctx: SandboxContext, settle: (now: Date) => void): () => void {
  let nothingDueBefore = '';
  const db = ctx.db;
  db.function('sandbox_waits_until', { deterministic: false }, (at: unknown) => {
    if (typeof at === 'string' && at < nothingDueBefore) nothingDueBefore = at;
    return null;
  });
  const delivery = `WHEN NEW.status IN (${STILL_SCHEDULED_SQL})
    BEGIN SELECT sandbox_waits_until(NEW.next_attempt_at); END`;
  const upload = `WHEN NEW.status = 'pending' AND NEW.bytes_received = 0
    BEGIN SELECT sandbox_waits_until(NEW.upload_expires_at); END`;
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS due_delivery_insert AFTER INSERT ON main.deliveries ${delivery};
    CREATE TEMP TRIGGER IF NOT EXISTS due_delivery_update AFTER UPDATE ON main.deliveries ${delivery};
    CREATE TEMP TRIGGER IF NOT EXISTS due_upload_insert AFTER INSERT ON main.media_assets ${upload};
    CREATE TEMP TRIGGER IF NOT EXISTS due_upload_update AFTER UPDATE ON main.media_assets ${upload};`);
  const earliestDue = (): string =>
    (
      stmt(
        db,
        `SELECT MIN(at) AS at FROM (
           SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status IN (${STILL_SCHEDULED_SQL})
           UNION ALL
           SELECT MIN(upload_expires_at) FROM media_assets WHERE status = 'pending' AND bytes_received = 0)`,
      ).get() as { at: string | null }
    ).at ?? NEVER;
  return () => {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    if (nowIso < nothingDueBefore) return;
    // First use, or the clock reached the earliest time reported: read what really waits.
    nothingDueBefore = earliestDue();
    if (nothingDueBefore <= nowIso) {
      settle(now);
      nothingDueBefore = earliestDue();
    }
  };
}
