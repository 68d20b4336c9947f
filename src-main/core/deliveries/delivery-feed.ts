import { LIMITS } from '../../../src-shared/api/limits';
import { PLATFORMS } from '../../../src-shared/api/common';
import { DELIVERY_STATUSES, type Delivery } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import type { z } from 'zod';
import type { PostsListQuery, PostsPage } from '../../../src-shared/ipc/posts';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';
import { silentLogger, type Logger } from '../common/logger';
import type { Store } from '../store/store';
import {
  MAX_PAGE,
  openDeliveryIndex,
  type DeliveryIndex,
  type DeliveryQuery,
  type PostGroupPage,
} from './delivery-index';
import { withDeliveryLearning } from './learning-client';

type Lister = Pick<ApiClient, 'listPosts'>;

export interface DeliveryFeedOptions {
  readonly store: Store;
  /** The current service's client (already learning, see `observe`), or null while disconnected. */
  readonly client: () => Lister | null;
  /** Which service the current client talks to ("sandbox", or the base URL). */
  readonly scope: () => string;
  /** A refresh started less than this long after the last one finished is skipped (default 10 s). */
  readonly minIntervalMs?: number;
  /** How long a first page waits for the refresh before it answers from the index (default 5 s). */
  readonly waitMs?: number;
  /** Where a refresh that failed after its answer was no longer awaited, or a lesson the index refused, is reported. */
  readonly log?: Logger;
}

export interface CalendarQuery {
  readonly start: string;
  readonly end: string;
  readonly platform?: string | undefined;
  readonly statuses: readonly string[];
}

/** How current the index is for the current service: what a screen says beside a list read from it. */
export interface IndexFreshness {
  /** When a refresh from the service last succeeded (ms since the epoch), or null: never in this session. */
  readonly refreshedAt: number | null;
  /** A refresh is under way. */
  readonly refreshing: boolean;
  /** Why the last refresh failed; null when it succeeded (or none ended yet). */
  readonly error: unknown;
}

/** Posts (not deliveries) matching a filter, `offset` and `limit` counting posts. */
export type GroupQuery = Pick<DeliveryQuery, 'platform' | 'unscheduled' | 'offset' | 'limit'> & {
  /** One status (the screen's filter). */
  readonly status?: string | undefined;
  /** Refresh from the service before answering. */
  readonly refresh?: boolean | undefined;
};

/** What the bridge reads: `posts:list` and `calendar:range` answered from the local index. */
export interface DeliveryIndexPort {
  list(query: Readonly<z.output<typeof PostsListQuery>>): Promise<PostsPage>;
  /** Grouped by parent post, in SQL. */
  groups(query: Readonly<GroupQuery>): Promise<PostGroupPage & { readonly offset: number }>;
  /** Every delivery the index holds under these posts, without asking the service. */
  deliveriesOf(postIds: readonly string[]): ReadonlyMap<string, readonly Delivery[]>;
  range(query: Readonly<CalendarQuery>): Promise<readonly Delivery[]>;
  /** How current the last answer was. */
  freshness(): IndexFreshness;
}

export interface DeliveryFeed extends DeliveryIndexPort {
  readonly index: DeliveryIndex;
  /** The client, learning into the index under `scope()` (the same wrapper for the same client). */
  observe<C extends object>(client: C, scope: () => string): C;
  /** Lists the newest 100 of every status and every platform (the service has no offset), once at a time. */
  refresh(opts?: { force?: boolean }): Promise<void>;
}

/** Every filter the service's list has, so older rows whose status moved are updated where the service still shows them. */
const REFRESH_QUERIES = [
  {},
  ...DELIVERY_STATUSES.map((status) => ({ status })),
  ...PLATFORMS.map((platform) => ({ platform })),
] as const;
const PARALLEL = 4;

/** Every filter of the service's list, a few at a time; the first failure ends the refresh and is thrown. */
async function refreshNow(client: Lister): Promise<void> {
  const slot = createLimit(PARALLEL);
  let firstError: unknown = null;
  await Promise.all(
    REFRESH_QUERIES.map((q) =>
      // Once the service has failed, the remaining filters are not asked: that would only make the failure slower to tell.
      slot(async () => {
        if (!firstError) await client.listPosts({ ...q, limit: LIMITS.pageSizeMax });
      }).catch((err: unknown) => {
        firstError ??= err;
      }),
    ),
  );
  if (firstError) throw firstError;
}

export function createDeliveryFeed(o: DeliveryFeedOptions): DeliveryFeed {
  const index = openDeliveryIndex(o.store);
  const observed = new WeakMap<object, object>();
  const minIntervalMs = o.minIntervalMs ?? 10_000;
  const waitMs = o.waitMs ?? 5_000;
  const log = o.log ?? silentLogger;
  const refreshing = new Map<string, Promise<void>>();
  /** When each scope's last refresh ended, whatever its outcome: a failed one is not repeated at once either. */
  const lastDone = new Map<string, number>();
  const outcome = new Map<string, { readonly refreshedAt: number | null; readonly error: unknown }>();

  const feed: DeliveryFeed = {
    index,
    observe(client, scope) {
      let w = observed.get(client) as typeof client | undefined;
      if (!w) {
        w = withDeliveryLearning(client, (lesson) => index.learn(scope(), lesson), log);
        observed.set(client, w);
      }
      return w;
    },
    refresh(opts) {
      const client = o.client();
      if (!client) return Promise.resolve();
      const scope = o.scope();
      const running = refreshing.get(scope);
      // A forced refresh must see what changed after one already under way began: it runs next.
      if (running)
        return opts?.force ? running.catch(() => undefined).then(() => feed.refresh(opts)) : running;
      if (!opts?.force && Date.now() - (lastDone.get(scope) ?? -Infinity) < minIntervalMs) {
        return Promise.resolve();
      }
      const p = refreshNow(client)
        .then(
          () => void outcome.set(scope, { refreshedAt: Date.now(), error: null }),
          (error: unknown) => {
            outcome.set(scope, { refreshedAt: outcome.get(scope)?.refreshedAt ?? null, error });
            throw error;
          },
        )
        .finally(() => {
          lastDone.set(scope, Date.now());
          refreshing.delete(scope);
        });
      refreshing.set(scope, p);
      return p;
    },
    async list(query) {
      const scope = o.scope();
      const offset = query.offset ?? 0;
      // The first page asks the service first; later pages read the index the first one filled.
      if (offset === 0) {
        const refreshing = feed.refresh({ force: query.refresh === true });
        await settleWithin(refreshing, waitMs, () => index.count(scope) === 0, log);
      }
      const page = index.queryDeliveries({
        scope,
        status: query.status,
        platform: query.platform,
        postId: query.post_id,
        offset,
        limit: query.limit ?? 50,
      });
      return { posts: [...page.items], offset, total: page.total };
    },
    async groups(query) {
      const scope = o.scope();
      const offset = query.offset ?? 0;
      if (offset === 0) {
        const refreshing = feed.refresh({ force: query.refresh === true });
        // Waiting for the service before the first page is what made opening Posts slow (11 list calls, ~300 ms):
        // once the index holds rows, or the service answered once this session, the page answers from the index
        // at once and says a refresh is under way (the screen asks again). Only a first-ever, empty index waits.
        const known = outcome.get(scope)?.refreshedAt != null || index.count(scope) > 0;
        // Known: not even a turn of the loop, in which the refresh's answers (an in-process sandbox's, say) would be
        // read and learned before this page goes out.
        if (known) logFailure(refreshing, log);
        else await settleWithin(refreshing, waitMs, () => index.count(scope) === 0, log);
      }
      const page = index.queryPosts({
        scope,
        status: query.status,
        platform: query.platform,
        unscheduled: query.unscheduled,
        offset,
        limit: query.limit ?? 100,
      });
      return { ...page, offset };
    },
    deliveriesOf(postIds) {
      const scope = o.scope();
      return new Map(postIds.map((id) => [id, index.ofPost(scope, id)]));
    },
    freshness() {
      const scope = o.scope();
      const last = outcome.get(scope);
      return {
        refreshedAt: last?.refreshedAt ?? null,
        refreshing: refreshing.has(scope),
        error: last?.error ?? null,
      };
    },
    async range(q) {
      const scope = o.scope();
      await settleWithin(feed.refresh(), waitMs, () => index.count(scope) === 0, log);
      return index.queryDeliveries({
        scope,
        status: q.statuses,
        platform: q.platform,
        from: q.start,
        to: q.end,
        order: 'when',
        limit: MAX_PAGE,
      }).items;
    },
  };
  return feed;
}

/**
 * Waits for a refresh at most `ms`; it goes on in the background after that. A failed refresh is
 * thrown only when the index has nothing to show instead (`empty()`): then the error says more.
 */
/** The page was answered from the index; the next list tries the service again. */
const logFailure = (p: Promise<void>, log: Logger): void =>
  void p.catch((error: unknown) => log.warn('refreshing the posts list failed', { error: errorText(error) }));

async function settleWithin(p: Promise<void>, ms: number, empty: () => boolean, log: Logger): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    await Promise.race([p, late]);
  } catch (err) {
    if (empty()) throw err;
  } finally {
    clearTimeout(timer);
    logFailure(p, log);
  }
}
