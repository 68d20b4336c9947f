import { createHash } from 'node:crypto';
import { AnalyticsQuery, type AnalyticsResponse, type Metrics, type Platform } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError, notFound } from '../errors';
import { resolvePostId } from '../posts/post-reads';
import { parse } from '../validate';

interface Row {
  id: string;
  post_id: string;
  platform: Platform;
  social_account_id: string;
  status: string;
  published_at: string | null;
  caption: string;
}

const REACH: Record<Platform, number> = { tiktok: 3, instagram: 2, youtube: 2.5, linkedin: 0.8, x: 1 };
const HOUR = 3_600_000;

/**
 * Metrics of one posted delivery: a base drawn from a hash of its id, grown with its age on the
 * sandbox clock (1 - e^(-age/24h)), so a delivery's numbers only rise and the same id and clock always
 * give the same result. Deliveries that are not `posted` have none.
 */
export function deliveryMetrics(
  row: Pick<Row, 'id' | 'platform' | 'status' | 'published_at'>,
  nowMs: number,
): Metrics {
  if (row.status !== 'posted' || !row.published_at)
    return { impressions: 0, likes: 0, comments: 0, shares: 0 };
  const h = createHash('sha256').update(row.id).digest();
  const ageHours = Math.max(0, (nowMs - Date.parse(row.published_at)) / HOUR);
  const growth = 1 - Math.exp(-ageHours / 24);
  const impressions = Math.round((500 + (h.readUInt16BE(0) % 9500)) * REACH[row.platform] * growth);
  const likes = Math.round(impressions * (0.02 + (h[2]! % 60) / 1000));
  const comments = Math.round(likes * (0.05 + (h[3]! % 10) / 100));
  const shares = Math.round(likes * (0.03 + (h[4]! % 8) / 100));
  return { impressions, likes, comments, shares };
}

const zero = (): Metrics => ({ impressions: 0, likes: 0, comments: 0, shares: 0 });
const add = (into: Metrics, m: Metrics): void => {
  into.impressions += m.impressions;
  into.likes += m.likes;
  into.comments += m.comments;
  into.shares += m.shares;
};
const rank = <T extends Metrics>(list: T[]): T[] => list.sort((a, b) => b.impressions - a.impressions);

/**
 * `GET /api/cli/analytics`. Overview: `totals`, `by_platform`, `by_account`, `by_day` and the `limit`
 * best `top_posts` of the owner's posted deliveries (filtered by platform, account and the
 * `published_at` range). With `post_id` (parent or delivery id): that `post`, its `totals` and its
 * `deliveries` with their metrics; 404 when it is not the owner's.
 */
export function analytics(ctx: SandboxContext, ownerId: string, query: unknown): AnalyticsResponse {
  const q = parse(AnalyticsQuery, query);
  const start = q.start_date ? new Date(q.start_date).toISOString() : null;
  const end = q.end_date ? new Date(q.end_date).toISOString() : null;
  if (start && end && start > end)
    throw new SandboxError(400, 'VALIDATION_FAILED', 'start_date: must not be after end_date');
  const nowMs = ctx.clock.nowMs();
  const limit = q.limit ?? 20;

  let postId: string | null = null;
  if (q.post_id !== undefined) {
    postId = resolvePostId(ctx, ownerId, q.post_id);
    if (!postId) throw notFound('post');
  }
  const rows = stmt(
    ctx.db,
    `SELECT d.id, d.post_id, d.platform, d.social_account_id, d.status, d.published_at, p.caption
     FROM deliveries d JOIN posts p ON p.id = d.post_id
     WHERE d.owner_id = @owner AND (@post IS NULL OR d.post_id = @post)
       AND (@platform IS NULL OR d.platform = @platform) AND (@account IS NULL OR d.social_account_id = @account)
       AND (@post IS NOT NULL OR d.status = 'posted')
       AND (@start IS NULL OR d.published_at >= @start) AND (@end IS NULL OR d.published_at <= @end)
     ORDER BY d.seq`,
  ).all({
    owner: ownerId,
    post: postId,
    platform: q.platform ?? null,
    account: q.account_id ?? null,
    start,
    end,
  }) as Row[];

  const totals = zero();
  const byPlatform = new Map<Platform, Metrics & { platform: Platform; posts: number }>();
  const byAccount = new Map<string, Metrics & { account_id: string; platform: Platform; posts: number }>();
  const byDay = new Map<string, Metrics & { date: string; posts: number }>();
  const perDelivery = rows.map((r) => {
    const m = deliveryMetrics(r, nowMs);
    add(totals, m);
    const p = byPlatform.get(r.platform) ?? { platform: r.platform, posts: 0, ...zero() };
    p.posts += 1;
    add(p, m);
    byPlatform.set(r.platform, p);
    const a = byAccount.get(r.social_account_id) ?? {
      account_id: r.social_account_id,
      platform: r.platform,
      posts: 0,
      ...zero(),
    };
    a.posts += 1;
    add(a, m);
    byAccount.set(r.social_account_id, a);
    if (r.published_at) {
      const date = r.published_at.slice(0, 10);
      const d = byDay.get(date) ?? { date, posts: 0, ...zero() };
      d.posts += 1;
      add(d, m);
      byDay.set(date, d);
    }
    return { row: r, metrics: m };
  });
  const range = { start_date: start, end_date: end };

  if (postId) {
    const post = stmt(ctx.db, 'SELECT id, caption, created_at FROM posts WHERE id = ?').get(postId) as {
      id: string;
      caption: string;
      created_at: string;
    };
    return {
      post,
      totals,
      by_platform: rank([...byPlatform.values()]),
      deliveries: perDelivery.slice(0, limit).map(({ row, metrics }) => ({
        id: row.id,
        platform: row.platform,
        social_account_id: row.social_account_id,
        status: row.status,
        published_at: row.published_at,
        ...metrics,
      })),
      range,
      generated_at: new Date(nowMs).toISOString(),
    };
  }
  return {
    totals: { ...totals, posts: rows.length },
    by_platform: rank([...byPlatform.values()]),
    by_account: rank([...byAccount.values()]),
    by_day: [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1)),
    top_posts: rank(
      perDelivery.map(({ row, metrics }) => ({
        post_id: row.post_id,
        delivery_id: row.id,
        platform: row.platform,
        social_account_id: row.social_account_id,
        caption: row.caption.slice(0, 140),
        published_at: row.published_at,
        ...metrics,
      })),
    ).slice(0, limit),
    range,
    generated_at: new Date(nowMs).toISOString(),
  };
}
