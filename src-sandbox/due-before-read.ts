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
 * That time only moves earlier when a row is written, so it is read again (one indexed query) whenever the
 * connection has written anything since it was last read: SQLite's `total_changes()` counts every row any
 * statement changed, whichever code wrote it. This replaced a trigger on every delivery row, which a
 * 100-item bulk ran 200 times (docs/sandbox.md, Benchmark); a read-only request now costs one look at the
 * counter. A write that rolled back, or of a row since deleted, only makes the next request look again.
 */
export function createDueBeforeRead(ctx: SandboxContext, settle: (now: Date) => void): () => void {
  let nothingDueBefore = '';
  let changesSeen = -1;
  const db = ctx.db;
  const changes = (): number => (stmt(db, 'SELECT total_changes() AS n').get() as { n: number }).n;
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
    const written = changes();
    if (written !== changesSeen) {
      changesSeen = written;
      nothingDueBefore = earliestDue();
    }
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    if (nowIso < nothingDueBefore) return;
    // The clock reached the earliest time anything waits: settle, then read what still waits.
    settle(now);
    changesSeen = changes();
    nothingDueBefore = earliestDue();
  };
}
