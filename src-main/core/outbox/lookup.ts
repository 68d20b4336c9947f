import { LIMITS } from '../../../src-shared/api/limits';
import type { CreatePostRequest, Delivery, DeliveryStatus } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { fittingPostIds, type Window } from './match';

type Lister = Pick<ApiClient, 'listPosts'>;

/**
 * Where a publish-now can be after it was created: everything but `draft`. In the order a delivery moves through
 * them, so one that moves while the windows are read is still seen in a later one.
 */
export const PUBLISHED_STATUSES: readonly DeliveryStatus[] = [
  'scheduled',
  'retry_scheduled',
  'posted',
  'failed',
];

/** What the service showed just before the send: identical posts that are not ours, and its newest `created_at`. */
export interface Snapshot {
  readonly known: readonly string[];
  readonly fenceAt: number | null;
}

export async function snapshotBeforeSend(
  client: Lister,
  req: Readonly<CreatePostRequest>,
  signal?: AbortSignal,
): Promise<Snapshot> {
  const { posts } = await client.listPosts({ limit: LIMITS.pageSizeMax }, { signal });
  const times = posts.map((d) => Date.parse(d.created_at)).filter(Number.isFinite);
  return { known: fittingPostIds(posts, req), fenceAt: times.length ? Math.max(...times) : null };
}

/** Lists answered in one flush, by query, so entries to the same platforms share them. */
export type WindowCache = Map<string, Promise<Delivery[]>>;

/**
 * The narrowest windows the contract allows: one per platform of the request and status a published post can have,
 * read one after another (see PUBLISHED_STATUSES).
 */
export async function readWindows(
  client: Lister,
  req: Readonly<CreatePostRequest>,
  cache: WindowCache,
  signal?: AbortSignal,
): Promise<Window[]> {
  const limit = LIMITS.pageSizeMax;
  const platforms = [...new Set(req.targets.map((t) => t.platform))];
  const windows: Window[] = [];
  for (const platform of platforms) {
    for (const status of PUBLISHED_STATUSES) {
      const key = `${platform}|${status}`;
      let listing = cache.get(key);
      if (!listing) {
        listing = client.listPosts({ platform, status, limit }, { signal }).then((r) => r.posts);
        cache.set(key, listing);
        // A failed read is not kept: the next entry asks again.
        listing.catch(() => cache.delete(key));
      }
      const deliveries = await listing;
      windows.push({ platform, status, deliveries, full: deliveries.length >= limit });
    }
  }
  return windows;
}
