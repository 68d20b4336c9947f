import { NetworkError } from '../core/api/errors';
import { errorText } from '../core/common/error-text';
import type { Logger } from '../core/common/logger';
import type { DeliveryIndex } from '../core/deliveries/delivery-index';
import { createDeliveryFeed } from '../core/deliveries/delivery-feed';
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

/**
 * The local delivery index of this data directory (the one the app keeps), brought up to date from the service
 * first: the service lists at most 100 deliveries per filter and has no offset, so only the index knows them all.
 * A service out of reach leaves the index as it was; any other refusal (a bad key) is thrown.
 */
export async function knownPosts(core: Core, log: Logger): Promise<KnownPosts> {
  const scope = core.endpoint.sandbox ? 'sandbox' : core.client.baseUrl;
  const feed = createDeliveryFeed({
    store: core.store,
    client: () => learning,
    scope: () => scope,
    log,
  });
  const learning = feed.observe(core.client, () => scope);
  let stale: string | null = null;
  try {
    await feed.refresh({ force: true });
  } catch (e) {
    if (!(e instanceof NetworkError)) throw e;
    stale = errorText(e);
    log.warn('the service could not be asked for its posts; using those seen before', { error: stale });
  }
  return { index: feed.index, scope, stale, client: learning };
}
