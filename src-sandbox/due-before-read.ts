import type { SandboxContext } from './context';
import { stmt } from './db';

/** Past every date the clock can show (clock.ts): "nothing is due". */
const NEVER = '9999-12-31T23:59:59.999Z';

/**
 * Settles due work (scheduled deliveries, expired upload addresses) before a request reads it, while the
 * clock follows real time and the 1 s tick may lag. Most requests find nothing due, and settling for each
 * one was per-request work that can be done once: it notes the earliest time anything falls due (one read
 * of two covering indexes) and the connection's change count, skips while neither has moved, and settles
 * only when something is due.
 */
export function createDueBeforeRead(ctx: SandboxContext, settle: (now: Date) => void): () => void {
  let seenChanges = -1;
  let nothingDueBefore = '';
  const changes = (): number => (stmt(ctx.db, 'SELECT total_changes() AS n').get() as { n: number }).n;
  const earliestDue = (): string =>
    (
      stmt(
        ctx.db,
        `SELECT MIN(at) AS at FROM (
           SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status IN ('scheduled', 'retry_scheduled')
           UNION ALL
           SELECT MIN(upload_expires_at) FROM media_assets WHERE status = 'pending' AND bytes_received = 0)`,
      ).get() as { at: string | null }
    ).at ?? NEVER;
  return () => {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const changed = changes() !== seenChanges;
    if (!changed && nowIso < nothingDueBefore) return;
    if (changed) nothingDueBefore = earliestDue();
    if (nothingDueBefore <= nowIso) {
      settle(now);
      nothingDueBefore = earliestDue();
    }
    seenChanges = changes();
  };
}
