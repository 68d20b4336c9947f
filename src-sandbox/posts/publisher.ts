import type { SandboxContext } from '../context';
import { stmt, transact } from '../db';
import { STILL_SCHEDULED_SQL, type AccountRow, type DeliveryRow } from './records';

/** The simulated platform's retry policy (docs/sandbox.md): 3 attempts in all, 5 minutes apart. */
export const PUBLISH_MAX_ATTEMPTS = 3;
export const PUBLISH_RETRY_DELAY_MS = 5 * 60_000;

const PROFILE_URL: Record<string, string> = {
  tiktok: 'https://www.tiktok.com/@sandbox/video/',
  instagram: 'https://www.instagram.com/p/',
  youtube: 'https://www.youtube.com/watch?v=',
  linkedin: 'https://www.linkedin.com/feed/update/urn:li:share:',
  x: 'https://x.com/sandbox/status/',
};

/** The address a published delivery shows, as the platform would give it. */
export const externalUrl = (platform: string, id: string): string =>
  `${PROFILE_URL[platform] ?? 'https://sandbox.invalid/'}${id}`;

/**
 * One publish attempt of a delivery at `at` (its due time, so retries chain deterministically even
 * when the clock jumps far ahead). Attempt n fails while n <= the account's `publish_failures`:
 * a failure moves it to `retry_scheduled` 5 minutes later, and after the 3rd attempt to `failed`.
 */
export function attemptPublish(ctx: SandboxContext, delivery: DeliveryRow, at: Date): void {
  const account = stmt(ctx.db, 'SELECT * FROM accounts WHERE id = ? AND owner_id = ?').get(
    delivery.social_account_id,
    delivery.owner_id,
  ) as AccountRow | undefined;
  const attempt = delivery.attempts + 1;
  const iso = at.toISOString();
  const failures = account?.publish_failures ?? 0;
  if (account && attempt > failures) {
    stmt(
      ctx.db,
      `UPDATE deliveries SET status = 'posted', attempts = ?, published_at = ?, next_attempt_at = NULL,
         last_error = NULL, external_url = ?, updated_at = ? WHERE id = ?`,
    ).run(attempt, iso, externalUrl(delivery.platform, delivery.id), iso, delivery.id);
    return;
  }
  const error = account
    ? `simulated ${delivery.platform} failure on attempt ${attempt} of ${PUBLISH_MAX_ATTEMPTS} (account publish_failures = ${failures})`
    : 'the social account is no longer connected';
  if (attempt >= PUBLISH_MAX_ATTEMPTS || !account) {
    stmt(
      ctx.db,
      `UPDATE deliveries SET status = 'failed', attempts = ?, next_attempt_at = NULL, last_error = ?, updated_at = ? WHERE id = ?`,
    ).run(attempt, error, iso, delivery.id);
    return;
  }
  stmt(
    ctx.db,
    `UPDATE deliveries SET status = 'retry_scheduled', attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
  ).run(attempt, new Date(at.getTime() + PUBLISH_RETRY_DELAY_MS).toISOString(), error, iso, delivery.id);
}

/** Publishes every delivery that falls due up to `now`, retries included, in due order. */
export function publishDue(ctx: SandboxContext, now: Date): void {
  const nowIso = now.toISOString();
  const due = stmt(
    ctx.db,
    `SELECT * FROM deliveries WHERE status IN (${STILL_SCHEDULED_SQL}) AND next_attempt_at <= ?
     ORDER BY next_attempt_at, seq LIMIT 500`,
  );
  for (;;) {
    const rows = due.all(nowIso) as DeliveryRow[];
    if (rows.length === 0) return;
    transact(ctx.db, () => {
      for (const row of rows) attemptPublish(ctx, row, new Date(row.next_attempt_at ?? nowIso));
    });
  }
}
