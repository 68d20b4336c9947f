import type { Delivery } from '../../../src-shared/api/posts';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import type { DeliveryIndex, IndexChange } from '../deliveries/delivery-index';

const REASON: Record<IndexChange['source'], PostsChanged['reason']> = {
  answer: 'updated',
  bulk: 'created',
  removed: 'deleted',
  listed: 'refresh',
};

/** One index change as the pages hear it: the posts touched, each changed delivery as it now is, and the removed. */
export function toPostsChanged(
  change: Readonly<IndexChange>,
  decorate: (d: Delivery) => Delivery = (d) => d,
): PostsChanged {
  const postIds = new Set<string>();
  for (const d of change.deliveries) postIds.add(d.post_id);
  for (const r of change.removed) postIds.add(r.post_id);
  return {
    reason: REASON[change.source],
    post_ids: [...postIds],
    deliveries: change.deliveries.map(decorate),
    removed: change.removed.map((r) => ({ id: r.id, post_id: r.post_id })),
  };
}

/**
 * The one place `posts:didChange` comes from. Whatever changed the posts (a create through the outbox, an update,
 * a delete, publish now, a retry, the queue, a bulk batch, many at once, an inbox approval, a refresh from the
 * service), its answer is applied to the index through the learning client, and the index tells what that
 * changed, once it is committed. No handler announces a change by hand, so none can announce one that did not
 * happen, or forget one that did. Changes of another service (`scope`) than the current one are not told.
 */
export function followPostChanges(
  index: Pick<DeliveryIndex, 'onDidChange' | 'get'>,
  scope: () => string,
  events: { emit(channel: 'posts:didChange', payload: PostsChanged): unknown },
  /** What the pages see of a delivery beyond the service's record (the failure a retry replaced). */
  decorate?: (d: Delivery) => Delivery,
): { dispose(): void; retell(deliveryIds: readonly string[]): void } {
  const dispose = index.onDidChange((change) => {
    if (change.scope === scope()) events.emit('posts:didChange', toPostsChanged(change, decorate));
  });
  return {
    dispose,
    /**
     * Tells these deliveries again as the index holds them, when what the pages see of them changed outside the
     * service's record (a retry confirmed after its new delivery was learned now carries the failure it replaced).
     */
    retell(deliveryIds) {
      const s = scope();
      const deliveries = deliveryIds.flatMap((id) => {
        const d = index.get(s, id);
        return d ? [d] : [];
      });
      if (deliveries.length === 0) return;
      events.emit(
        'posts:didChange',
        toPostsChanged({ scope: s, source: 'answer', deliveries, removed: [] }, decorate),
      );
    },
  };
}
