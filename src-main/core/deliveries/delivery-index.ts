import { LIMITS } from '../../../src-shared/api/limits';
import type { Delivery } from '../../../src-shared/api/posts';
import type { Store } from '../store/store';
import { deliveriesFromBulk, type DeliveryLesson } from './lessons';
import { DELIVERIES_MIGRATIONS, DELIVERIES_NAMESPACE } from './migrations';

export interface DeliveryQuery {
  /** Which service: "sandbox" offline, the base URL otherwise (as the outbox and bulk records). */
  readonly scope: string;
  /** One status, or any of several. */
  readonly status?: string | readonly string[] | undefined;
  readonly platform?: string | undefined;
  /** Only the deliveries of this post. */
  readonly postId?: string | undefined;
  /** Only the deliveries to this account (`social_account_id`). */
  readonly account?: string | undefined;
  /** Only deliveries with no time at all (drafts never scheduled). */
  readonly unscheduled?: boolean | undefined;
  /** Only deliveries whose `scheduled_at` (else `published_at`) is in [from, to). */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly offset?: number | undefined;
  /** Default 100; at most 10,000. */
  readonly limit?: number | undefined;
  /** `newest`: as the service lists (created, newest first). `when`: by that time, earliest first. Default: `when` with from/to, else `newest`. */
  readonly order?: 'newest' | 'when' | undefined;
}

export interface DeliveryPage {
  readonly items: readonly Delivery[];
  /** How many match the query, whatever the page. */
  readonly total: number;
}

/** One parent post: every delivery the index holds under it, whichever of them matched the query. */
export interface PostGroup {
  readonly post_id: string;
  /** Ordered by platform, then account: the chips keep their places as statuses change. */
  readonly deliveries: readonly Delivery[];
}

export interface PostGroupPage {
  readonly groups: readonly PostGroup[];
  /** How many posts have at least one delivery matching the query, whatever the page. */
  readonly total: number;
}

/** What one lesson changed in the index: the new records of the deliveries that changed, and the ones now gone. */
export interface IndexChange {
  readonly scope: string;
  /** What taught it: an answer to a change (`answer`), a bulk create (`bulk`), a delete, or a list refresh. */
  readonly source: 'answer' | 'bulk' | 'removed' | 'listed';
  readonly deliveries: readonly Delivery[];
  readonly removed: readonly { readonly id: string; readonly post_id: string }[];
}

export interface DeliveryIndex {
  /** Applies what one answer of the service taught; returns how many rows changed. */
  learn(scope: string, lesson: Readonly<DeliveryLesson>): number;
  /** Each lesson that changed something, once it is committed: the one feed of precise post changes. */
  onDidChange(listener: (change: IndexChange) => void): () => void;
  queryDeliveries(q: Readonly<DeliveryQuery>): DeliveryPage;
  /**
   * Posts (not deliveries) with at least one delivery matching `q`, paged by post: `offset` and `limit` count
   * posts. `newest` orders by a post's newest delivery, `when` by its earliest time. Grouped in SQL.
   */
  queryPosts(q: Readonly<DeliveryQuery>): PostGroupPage;
  /** Every delivery of one post, by platform then account. */
  ofPost(scope: string, postId: string): Delivery[];
  /**
   * The posts with a delivery that matches (offset, limit and order aside), newest first by their earliest
   * delivery: ids only, read from the indexes, so an export can walk thousands of posts without holding them.
   */
  postIdsOf(q: Readonly<DeliveryQuery>): readonly string[];
  /** The matching deliveries of these posts (at most 1,000 ids), grouped by post in the order given. */
  deliveriesOfPosts(q: Readonly<DeliveryQuery>, postIds: readonly string[]): readonly (readonly Delivery[])[];
  get(scope: string, id: string): Delivery | null;
  count(scope: string): number;
}

export const MAX_PAGE = 10_000;

interface Row {
  raw: string;
}

const ms = (t: string | null | undefined): number | null => {
  if (!t) return null;
  const v = Date.parse(t);
  return Number.isNaN(v) ? null : v;
};

/** Opens (migrating) the index in the store. Every write is one transaction; reads use the indexes. */
// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the prepared SQLite statements); each method is short and named
export function openDeliveryIndex(store: Store, opts: { now?: () => number } = {}): DeliveryIndex {
  store.migrate(DELIVERIES_NAMESPACE, DELIVERIES_MIGRATIONS);
  const db = store.db;
  const now = opts.now ?? Date.now;

  const maxSeq = db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM deliveries');
  const isRemoved = db.prepare<[string, string], { id: string }>(
    'SELECT id FROM deliveries_removed WHERE scope = ? AND id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO deliveries (scope, id, post_id, status, platform, social_account_id, caption, scheduled_at,
       published_at, last_error, created_at, updated_at, created_ms, updated_ms, when_ms, seen_ms, learned, seq, raw)
     VALUES (@scope, @id, @post_id, @status, @platform, @social_account_id, @caption, @scheduled_at, @published_at,
       @last_error, @created_at, @updated_at, @created_ms, @updated_ms, @when_ms, @seen_ms, @learned, @seq, @raw)
     ON CONFLICT (scope, id) DO NOTHING`,
  );
  // The service's record replaces one pieced together from a bulk answer, and an older record of its own.
  const update = db.prepare(
    `UPDATE deliveries SET post_id = @post_id, status = @status, platform = @platform,
       social_account_id = @social_account_id, caption = @caption, scheduled_at = @scheduled_at,
       published_at = @published_at, last_error = @last_error, created_at = @created_at, updated_at = @updated_at,
       created_ms = @created_ms, updated_ms = @updated_ms, when_ms = @when_ms, seen_ms = @seen_ms, learned = 0,
       raw = @raw
     WHERE scope = @scope AND id = @id AND @learned = 0 AND (learned = 1 OR updated_ms <= @updated_ms)
       AND (learned = 1 OR raw IS NOT @raw)`,
  );
  const touch = db.prepare<[number, string, string]>(
    'UPDATE deliveries SET seen_ms = ? WHERE scope = ? AND id = ?',
  );
  const idsOfPost = db.prepare<[string, string, string], { id: string; post_id: string }>(
    'SELECT id, post_id FROM deliveries WHERE scope = ? AND (id = ? OR post_id = ?)',
  );
  const postOf = db.prepare<[string, string], { post_id: string }>(
    'SELECT post_id FROM deliveries WHERE scope = ? AND id = ?',
  );
  const del = db.prepare<[string, string]>('DELETE FROM deliveries WHERE scope = ? AND id = ?');
  const tombstone = db.prepare<[string, string, string]>(
    'INSERT OR IGNORE INTO deliveries_removed (scope, id, removed_at) VALUES (?, ?, ?)',
  );
  const getOne = db.prepare<[string, string], Row>('SELECT raw FROM deliveries WHERE scope = ? AND id = ?');
  const countAll = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM deliveries WHERE scope = ?',
  );
  const staleOf = db.prepare<[string, number, string | null, string | null], { id: string }>(
    `SELECT id FROM deliveries WHERE scope = ? AND seen_ms < ? AND (? IS NULL OR platform = ?)`,
  );

  /** Upserts in the given order; a list is newest first, so it is walked backwards to give the newest the highest seq. */
  function upsert(
    scope: string,
    deliveries: readonly Readonly<Delivery>[],
    learned: boolean,
    changed: Delivery[],
  ): void {
    let next = (maxSeq.get()?.seq ?? 0) + 1;
    const seen = now();
    for (const d of deliveries) {
      if (isRemoved.get(scope, d.id)) continue;
      const created = ms(d.created_at) ?? seen;
      const params = {
        scope,
        id: d.id,
        post_id: d.post_id,
        status: d.status,
        platform: d.platform,
        social_account_id: d.social_account_id,
        caption: d.caption,
        scheduled_at: d.scheduled_at ?? null,
        published_at: d.published_at ?? null,
        last_error: d.last_error ?? null,
        created_at: d.created_at,
        updated_at: d.updated_at,
        created_ms: created,
        updated_ms: ms(d.updated_at) ?? created,
        when_ms: ms(d.scheduled_at) ?? ms(d.published_at),
        seen_ms: seen,
        learned: learned ? 1 : 0,
        seq: next,
        raw: JSON.stringify(d),
      };
      if (insert.run(params).changes > 0) {
        next += 1;
        changed.push(d);
      } else if (update.run(params).changes > 0) {
        changed.push(d);
      } else {
        touch.run(seen, scope, d.id);
      }
    }
  }

  /** Rows a complete list (fewer than its limit) should have shown but did not: deleted elsewhere. */
  function prune(
    scope: string,
    listed: readonly Readonly<Delivery>[],
    platform: string | null,
    since: number,
    removed: { id: string; post_id: string }[],
  ): void {
    const shown = new Set(listed.map((d) => d.id));
    for (const { id } of staleOf.all(scope, since, platform, platform)) {
      if (shown.has(id)) continue;
      const post_id = postOf.get(scope, id)?.post_id;
      if (del.run(scope, id).changes > 0 && post_id !== undefined) removed.push({ id, post_id });
    }
  }

  const listeners = new Set<(change: IndexChange) => void>();

  function learn(scope: string, lesson: Readonly<DeliveryLesson>): number {
    const changed: Delivery[] = [];
    const removed: { id: string; post_id: string }[] = [];
    db.transaction((): void => {
      switch (lesson.kind) {
        case 'records': {
          const ordered = lesson.listed ? [...lesson.deliveries].reverse() : lesson.deliveries;
          upsert(scope, ordered, false, changed);
          const l = lesson.listed;
          // Only a list filtered by nothing or by platform (which never changes) proves a row gone;
          // a status filter does not: the row may only have moved to another status.
          if (
            l &&
            l.query.status === undefined &&
            lesson.deliveries.length < Number(l.query.limit ?? LIMITS.pageSizeDefault.posts)
          ) {
            prune(scope, lesson.deliveries, l.query.platform ?? null, l.startedAt, removed);
          }
          return;
        }
        case 'bulk':
          upsert(scope, deliveriesFromBulk(lesson.items, lesson.results, new Date(now())), true, changed);
          return;
        case 'removed': {
          const at = new Date(now()).toISOString();
          const rows = idsOfPost.all(scope, lesson.id, lesson.id);
          tombstone.run(scope, lesson.id, at);
          for (const r of rows) {
            tombstone.run(scope, r.id, at);
            if (del.run(scope, r.id).changes > 0) removed.push(r);
          }
          return;
        }
      }
    }).immediate();
    if (changed.length + removed.length > 0 && listeners.size > 0) {
      const change: IndexChange = {
        scope,
        source: lesson.kind === 'records' ? (lesson.listed ? 'listed' : 'answer') : lesson.kind,
        deliveries: changed,
        removed,
      };
      for (const listener of [...listeners]) listener(change);
    }
    return changed.length + removed.length;
  }

  const statements = new Map<string, ReturnType<typeof db.prepare>>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };

  /** The WHERE clause and its parameters for a query's filters (not its paging). */
  function filterOf(q: Readonly<DeliveryQuery>): {
    filter: string;
    params: Record<string, unknown>;
    ranged: boolean;
  } {
    const where = ['scope = @scope'];
    const params: Record<string, unknown> = { scope: q.scope };
    const statuses = q.status === undefined ? [] : typeof q.status === 'string' ? [q.status] : [...q.status];
    if (statuses.length === 1) {
      where.push('status = @status');
      params.status = statuses[0];
    } else if (statuses.length > 1) {
      where.push(`status IN (${statuses.map((_, i) => `@status${i}`).join(', ')})`);
      statuses.forEach((s, i) => (params[`status${i}`] = s));
    }
    if (q.platform !== undefined) {
      where.push('platform = @platform');
      params.platform = q.platform;
    }
    if (q.postId !== undefined) {
      where.push('post_id = @post_id');
      params.post_id = q.postId;
    }
    if (q.account !== undefined) {
      where.push('social_account_id = @account');
      params.account = q.account;
    }
    if (q.unscheduled) where.push('when_ms IS NULL');
    const ranged = q.from !== undefined || q.to !== undefined;
    if (ranged) where.push('when_ms IS NOT NULL');
    if (q.from !== undefined) {
      where.push('when_ms >= @from');
      params.from = ms(q.from) ?? 0;
    }
    if (q.to !== undefined) {
      where.push('when_ms < @to');
      params.to = ms(q.to) ?? 0;
    }
    return { filter: where.join(' AND '), params, ranged };
  }

  const pageParams = (q: Readonly<DeliveryQuery>, params: Record<string, unknown>) => {
    params.limit = Math.max(0, Math.min(MAX_PAGE, q.limit ?? 100));
    params.offset = Math.max(0, q.offset ?? 0);
    return params;
  };

  function queryDeliveries(q: Readonly<DeliveryQuery>): DeliveryPage {
    const { filter, params, ranged } = filterOf(q);
    const order =
      (q.order ?? (ranged ? 'when' : 'newest')) === 'when'
        ? 'when_ms ASC, seq ASC'
        : 'created_ms DESC, seq DESC';
    const total = (
      prepared(`SELECT COUNT(*) AS n FROM deliveries WHERE ${filter}`).get(params) as { n: number }
    ).n;
    const rows = prepared(
      `SELECT raw FROM deliveries WHERE ${filter} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
    ).all(pageParams(q, params)) as Row[];
    return { items: rows.map((r) => JSON.parse(r.raw) as Delivery), total };
  }

  const ofPost = db.prepare<[string, string], Row>(
    // Named: without statistics the planner otherwise picks the primary key's scope prefix and walks the whole scope.
    'SELECT raw FROM deliveries INDEXED BY deliveries_post WHERE scope = ? AND post_id = ? ORDER BY platform, social_account_id, seq',
  );

  const deliveriesOfPost = (scope: string, postId: string): Delivery[] =>
    ofPost.all(scope, postId).map((r) => JSON.parse(r.raw) as Delivery);

  /**
   * Newest first, a page of posts is the first posts met walking the newest-first index: a post's place is its
   * newest delivery, so the walk stops after offset + limit posts instead of grouping every row of the scope
   * (7 ms of the Posts screen's first frame at 10,000 rows, against well under 1).
   */
  function newestPosts(q: Readonly<DeliveryQuery>): PostGroupPage {
    const { filter, params } = filterOf(q);
    const countParams = { ...params };
    const { limit, offset } = pageParams(q, {}) as { limit: number; offset: number };
    const seen = new Set<string>();
    const ids: string[] = [];
    const rows = prepared(`SELECT post_id FROM deliveries WHERE ${filter} ORDER BY created_ms DESC, seq DESC`)
      .raw()
      .iterate(params) as IterableIterator<[string]>;
    for (const [postId] of rows) {
      if (seen.has(postId)) continue;
      seen.add(postId);
      if (seen.size > offset) ids.push(postId);
      if (ids.length >= limit) break;
    }
    const total = (
      prepared(`SELECT COUNT(DISTINCT post_id) AS n FROM deliveries WHERE ${filter}`).get(countParams) as {
        n: number;
      }
    ).n;
    return {
      groups: ids.map((post_id) => ({ post_id, deliveries: deliveriesOfPost(q.scope, post_id) })),
      total,
    };
  }

  function queryPosts(q: Readonly<DeliveryQuery>): PostGroupPage {
    const { filter, params, ranged } = filterOf(q);
    if ((q.order ?? (ranged ? 'when' : 'newest')) === 'newest') return newestPosts(q);
    const order = 'MIN(when_ms) ASC, MIN(seq) ASC';
    const countParams = { ...params };
    pageParams(q, params);
    // One pass: the page's post ids and, by a window over every group, how many posts match in all.
    const ids = prepared(
      `SELECT post_id, COUNT(*) OVER () AS n FROM deliveries WHERE ${filter} GROUP BY post_id ORDER BY ${order} LIMIT @limit OFFSET @offset`,
    ).all(params) as { post_id: string; n: number }[];
    const total =
      ids[0]?.n ??
      (
        prepared(`SELECT COUNT(DISTINCT post_id) AS n FROM deliveries WHERE ${filter}`).get(countParams) as {
          n: number;
        }
      ).n;
    // Each post's deliveries through the (scope, post_id) index: a page reads only its own posts' rows.
    const groups = ids.map(({ post_id }) => ({ post_id, deliveries: deliveriesOfPost(q.scope, post_id) }));
    return { groups, total };
  }

  function postIdsOf(q: Readonly<DeliveryQuery>): readonly string[] {
    const { filter, params } = filterOf(q);
    const rows = prepared(
      `SELECT post_id FROM deliveries WHERE ${filter} GROUP BY post_id ORDER BY MIN(created_ms) DESC, post_id`,
    )
      .raw()
      .all(params) as [string][];
    return rows.map((r) => r[0]);
  }

  function deliveriesOfPosts(
    q: Readonly<DeliveryQuery>,
    postIds: readonly string[],
  ): readonly (readonly Delivery[])[] {
    if (postIds.length > 1000) throw new RangeError('at most 1,000 posts at once');
    const { filter, params } = filterOf({ ...q, postId: undefined });
    params.post_ids = JSON.stringify(postIds);
    // The ids drive the join (CROSS JOIN keeps that order), so each post is one look-up in deliveries_post rather
    // than a scan of the whole scope per page.
    const rows = prepared(
      `SELECT d.raw AS raw FROM json_each(@post_ids) AS j CROSS JOIN deliveries AS d INDEXED BY deliveries_post
       ON d.scope = @scope AND d.post_id = j.value WHERE ${filter} ORDER BY d.seq`,
    ).all(params) as Row[];
    const byPost = new Map<string, Delivery[]>(postIds.map((id) => [id, []]));
    for (const r of rows) {
      const d = JSON.parse(r.raw) as Delivery;
      byPost.get(d.post_id)?.push(d);
    }
    return [...byPost.values()].filter((ds) => ds.length > 0);
  }

  return {
    learn,
    onDidChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    queryDeliveries,
    queryPosts,
    ofPost: deliveriesOfPost,
    postIdsOf,
    deliveriesOfPosts,
    get(scope, id) {
      const r = getOne.get(scope, id);
      return r ? (JSON.parse(r.raw) as Delivery) : null;
    },
    count: (scope) => countAll.get(scope)?.n ?? 0,
  };
}
