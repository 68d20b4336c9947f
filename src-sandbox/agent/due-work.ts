import type { SandboxContext } from '../context';
import { stmt } from '../db';
import type { AutomationRow } from './records';
import { occurrencesBetween } from './schedule';

/** A legacy run whose lease expires this many times is failed rather than queued again. */
export const MAX_LEASE_EXPIRIES = 5;
/** How long a direct upload stays `processing` on the sandbox clock (or until its next status read). */
export const DIRECT_UPLOAD_PROCESSING_MS = 2000;

/** Legacy queue: every occurrence of an active automation's cron up to `now` becomes a pending run. */
function materializeLegacyRuns(ctx: SandboxContext, nowIso: string): void {
  const rows = stmt(
    ctx.db,
    `SELECT * FROM agent_automations WHERE queue = 'legacy' AND scheduled_through < ?`,
  ).all(nowIso) as AutomationRow[];
  for (const a of rows) {
    if (a.status === 'active') {
      const due = occurrencesBetween(a.cron, a.timezone, new Date(a.scheduled_through), new Date(nowIso));
      for (const at of due) {
        const iso = at.toISOString();
        stmt(
          ctx.db,
          `INSERT OR IGNORE INTO agent_runs (id, owner_id, automation_id, revision, queue, state, scheduled_for,
             idempotency_key, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'legacy', 'pending', ?, ?, ?, ?)`,
        ).run(ctx.uuid(), a.owner_id, a.id, a.revision, iso, `${a.id}:${a.revision}:${iso}`, nowIso, nowIso);
      }
    }
    // Paused and removed automations pass their occurrences over, so a resume does not catch up.
    stmt(ctx.db, 'UPDATE agent_automations SET scheduled_through = ? WHERE id = ?').run(nowIso, a.id);
  }
}

/** Pending legacy runs whose automation was removed or moved to the local queue can never be claimed. */
function skipOrphanedPendingRuns(ctx: SandboxContext, nowIso: string): void {
  stmt(
    ctx.db,
    `UPDATE agent_runs SET state = 'skipped', finished_at = ?, updated_at = ?,
       error = 'the automation was removed or left the legacy queue'
     WHERE state = 'pending' AND automation_id IN (
       SELECT id FROM agent_automations WHERE status = 'removed' OR queue <> 'legacy')`,
  ).run(nowIso, nowIso);
}

function expireLeases(ctx: SandboxContext, nowIso: string): void {
  stmt(
    ctx.db,
    `UPDATE agent_runs SET state = 'failed', finished_at = ?, updated_at = ?, claim_token_hash = NULL,
       lease_expires_at = NULL, lease_expiries = lease_expiries + 1,
       error = 'the lease expired ${MAX_LEASE_EXPIRIES} times without the run being completed'
     WHERE state = 'claimed' AND lease_expires_at <= ? AND lease_expiries + 1 >= ?`,
  ).run(nowIso, nowIso, nowIso, MAX_LEASE_EXPIRIES);
  stmt(
    ctx.db,
    `UPDATE agent_runs SET state = 'pending', updated_at = ?, claim_token_hash = NULL, lease_expires_at = NULL,
       claimed_at = NULL, lease_expiries = lease_expiries + 1
     WHERE state = 'claimed' AND lease_expires_at <= ?`,
  ).run(nowIso, nowIso);
}

/** The simulated platform's id of a published video, e.g. `tiktok_3f2a…`. */
export const PLATFORM_POST_ID_SQL = `platform || '_' || lower(hex(randomblob(8)))`;

function advanceDirectUploads(ctx: SandboxContext, nowIso: string): void {
  stmt(
    ctx.db,
    `UPDATE agent_direct_uploads SET state = 'failed', error = 'the upload address expired before the bytes arrived',
       updated_at = ? WHERE state = 'awaiting_upload' AND expires_at <= ?`,
  ).run(nowIso, nowIso);
  stmt(
    ctx.db,
    `UPDATE agent_direct_uploads SET state = 'published', published_at = ?, updated_at = ?,
       platform_post_id = ${PLATFORM_POST_ID_SQL}
     WHERE state = 'processing' AND processing_until <= ?`,
  ).run(nowIso, nowIso, nowIso);
}

/**
 * Everything that falls due on the clock: legacy runs, lease expiries, direct-upload progress. Runs on
 * every tick and again at the start of each runner request, so a request never sees stale state.
 */
export function runDueWork(ctx: SandboxContext, now: Date = ctx.clock.now()): void {
  const nowIso = now.toISOString();
  ctx.db.transaction(() => {
    materializeLegacyRuns(ctx, nowIso);
    skipOrphanedPendingRuns(ctx, nowIso);
    expireLeases(ctx, nowIso);
    advanceDirectUploads(ctx, nowIso);
  })();
}
