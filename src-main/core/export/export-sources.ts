import type { DeliveryIndex, DeliveryQuery } from '../deliveries/delivery-index';
import type { PostSource } from './post-records';

/**
 * Which deliveries a posts export covers: the index's query narrowed to the list's filters (which service, status,
 * platform), and for the calendar its range.
 */
export type PostsExportFilter = Pick<DeliveryQuery, 'scope' | 'status' | 'platform' | 'from' | 'to'>;

/**
 * The local delivery index, one post at a time: the matching post ids first (from the indexes, a few dozen bytes
 * each), then their deliveries `pageSize` posts per read, so no read holds the store long and no more than one
 * page of deliveries is in memory.
 */
export function indexPosts(
  index: Pick<DeliveryIndex, 'postIdsOf' | 'deliveriesOfPosts'>,
  f: PostsExportFilter,
  pageSize = 200,
): PostSource {
  const q = { scope: f.scope, status: f.status, platform: f.platform, from: f.from, to: f.to };
  return async function* () {
    const ids = index.postIdsOf(q);
    for (let i = 0; i < ids.length; i += pageSize) {
      yield* index.deliveriesOfPosts(q, ids.slice(i, i + pageSize));
      // Between pages the event loop turns: the app's other work is not held up by a long export.
      await new Promise<void>((r) => setImmediate(r));
    }
  };
}

/** The machine's zone: local times in an export are written in it unless one is asked for. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
