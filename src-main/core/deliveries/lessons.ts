import type { BulkItem, BulkItemResult } from '../../../src-shared/api/bulk';
import type { Delivery, ListPostsQuery } from '../../../src-shared/api/posts';

/** What one answer of the service taught us about deliveries. */
export type DeliveryLesson =
  /** Service records: a create's or PATCH's `social_posts`, or a page of `GET /api/cli/posts`. */
  | {
      readonly kind: 'records';
      readonly deliveries: readonly Readonly<Delivery>[];
      /** Set for a list page: its filter, and when it was asked for (local ms), to find rows it no longer shows. */
      readonly listed?: { readonly query: Readonly<ListPostsQuery>; readonly startedAt: number };
    }
  /** A bulk answer, with the items we sent: results carry only ids, the items the content. */
  | {
      readonly kind: 'bulk';
      readonly items: readonly Readonly<BulkItem>[];
      readonly results: readonly Readonly<BulkItemResult>[];
    }
  /** `DELETE /api/cli/posts` succeeded (or answered 404): the delivery (or every delivery of the post) is gone. */
  | { readonly kind: 'removed'; readonly id: string };

const iso = (t: string | undefined): string | null => (t === undefined ? null : new Date(t).toISOString());

/**
 * The deliveries a bulk answer created, one per target in target order (the service returns
 * `social_post_ids` in that order), as `draft` or `scheduled` as bulk can only create those. Their
 * times are our clock's until the service's own record replaces them.
 */
export function deliveriesFromBulk(
  items: readonly Readonly<BulkItem>[],
  results: readonly Readonly<BulkItemResult>[],
  now: Date,
): Delivery[] {
  const byKey = new Map(items.map((i) => [i.item_key, i]));
  const at = now.toISOString();
  const out: Delivery[] = [];
  for (const r of results) {
    const item = byKey.get(r.item_key);
    if (!item || r.status !== 'created' || !r.post_id) continue;
    const count = Math.min(item.targets.length, r.social_post_ids.length);
    for (let i = 0; i < count; i++) {
      const target = item.targets[i];
      const id = r.social_post_ids[i];
      if (!target || !id) continue;
      out.push({
        id,
        post_id: r.post_id,
        status: item.action === 'draft' ? 'draft' : 'scheduled',
        platform: target.platform,
        social_account_id: target.social_account_id,
        caption: item.caption,
        ...(item.title !== undefined ? { title: item.title } : {}),
        scheduled_at: iso(item.scheduled_at),
        published_at: null,
        last_error: null,
        created_at: at,
        updated_at: at,
      });
    }
  }
  return out;
}
