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
import { MAX_PAGE, openDeliveryIndex, type DeliveryIndex } from './delivery-index';
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

/** What the bridge reads: `posts:list` and `calendar:range` answered from the local index. */
export interface DeliveryIndexPort {
  list(query: Readonly<z.output<typeof PostsListQuery>>): Promise<PostsPage>;
  range(query: Readonly<CalendarQuery>): Promise<readonly Delivery[]>;
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

export function createDeliveryFeed(o: DeliveryFeedOptions): DeliveryFeed {
  const index = openDeliveryIndex(o.store);
  const observed = new WeakMap<object, object>();
  const minIntervalMs = o.minIntervalMs ?? 10_000;
  const waitMs = o.waitMs ?? 5_000;
  const log = o.log ?? silentLogger;
  const refreshing = new Map<string, Promise<void>>();
  const lastDone = new Map<string, number>();

  async function refreshNow(client: Lister): Promise<void> {
    const slot = createLimit(PARALLEL);
    let firstError: unknown = null;
    await Promise.all(
      REFRESH_QUERIES.map((q) =>
        slot(() => client.listPosts({ ...q, limit: LIMITS.pageSizeMax })).catch((err: unknown) => {
          firstError ??= err;
        }),
      ),
    );
    if (firstError) throw firstError;
  }

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
        .then(() => void lastDone.set(scope, Date.now()))
        .finally(() => refreshing.delete(scope));
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
        offset,
        limit: query.limit ?? 50,
      });
      return { posts: [...page.items], offset, total: page.total };
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
    // The page was answered from the index; the next list tries the service again.
    p.catch((error: unknown) => log.warn('refreshing the posts list failed', { error: errorText(error) }));
  }
}
