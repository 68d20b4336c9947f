import { PLATFORMS } from '../../src-shared/api/common';
import { LIMITS } from '../../src-shared/api/limits';
import { DELIVERY_STATUSES, type Delivery } from '../../src-shared/api/posts';
import { NetworkError } from '../core/api/errors';
import { errorText } from '../core/common/error-text';
import { createLimit } from '../core/common/limit';
import type { Logger } from '../core/common/logger';
import type { DeliveryIndex } from '../core/deliveries/delivery-index';
import { createDeliveryFeed, type DeliveryFeed } from '../core/deliveries/delivery-feed';
import type { Core } from '../core/services';

export interface KnownPosts {
  readonly index: DeliveryIndex;
  /** The index's scope for this core's service ("sandbox", or the base URL, as the app's). */
  readonly scope: string;
  /** The core's client, teaching the index what every answer shows (an update's result, say). */
  readonly client: Core['client'];
  /** Why the service could not be asked now (the index then holds what this machine saw before); null if it was. */
  readonly stale: string | null;
}

const scopeOf = (core: Core): string => (core.endpoint.sandbox ? 'sandbox' : core.client.baseUrl);

function feedOf(core: Core, log: Logger): { feed: DeliveryFeed; client: Core['client']; scope: string } {
  const scope = scopeOf(core);
  const feed = createDeliveryFeed({
    store: core.store,
    client: () => learning,
    scope: () => scope,
    log,
  });
  const learning = feed.observe(core.client, () => scope);
  return { feed, client: learning, scope };
}

/** This data directory's delivery index and its scope for the core's service, read as it is (no request). */
export function learningIndex(core: Core, log: Logger): { index: DeliveryIndex; scope: string } {
  const { feed, scope } = feedOf(core, log);
  return { index: feed.index, scope };
}

/**
 * The core's client, teaching this data directory's delivery index every post it creates, changes or lists:
 * what `bulk import` sends is then found by `posts show` and `export posts` however far back it lies.
 */
export function learningClient(core: Core, log: Logger): Core['client'] {
  return feedOf(core, log).client;
}

/**
 * The local delivery index of this data directory (the one the app keeps), brought up to date from the service
 * first: the service lists at most 100 deliveries per filter and has no offset, so only the index knows them all.
 * A service out of reach leaves the index as it was; any other refusal (a bad key) is thrown.
 */
export async function knownPosts(core: Core, log: Logger): Promise<KnownPosts> {
  const { feed, client, scope } = feedOf(core, log);
  let stale: string | null = null;
  try {
    await feed.refresh({ force: true });
  } catch (e) {
    if (!(e instanceof NetworkError)) throw e;
    stale = errorText(e);
    log.warn('the service could not be asked for its posts; using those seen before', { error: stale });
  }
  return { index: feed.index, scope, stale, client };
}

/** Every delivery of the post `id` names (a delivery id or a post id) in the index, by platform; empty if none. */
function fromIndex(known: KnownPosts, id: string): Delivery[] {
  const postId = known.index.get(known.scope, id)?.post_id ?? id;
  return known.index.ofPost(known.scope, postId);
}

/**
 * The post a delivery or post id names, with all its deliveries: the index first (every post this machine has
 * created, changed or listed, after the refresh `knownPosts` made: the newest 100 of each status and of each
 * platform), then the service's lists narrowed by status and platform together, the newest 100 of each pair,
 * which the index learns. The contract has no "get one post" and its lists no offset: a post the service lists
 * in none of those, and this machine never saw, cannot be reached. Empty when not found.
 */
export async function findPost(known: KnownPosts, id: string): Promise<Delivery[]> {
  const seen = fromIndex(known, id);
  if (seen.length || known.stale) return seen;
  const slot = createLimit(4);
  // Every pair is asked, even once the post turns up: its other deliveries may sit in other pairs' lists.
  await Promise.all(
    DELIVERY_STATUSES.flatMap((status) =>
      PLATFORMS.map((platform) =>
        slot(() => known.client.listPosts({ status, platform, limit: LIMITS.pageSizeMax })),
      ),
    ),
  );
  return fromIndex(known, id);
}
