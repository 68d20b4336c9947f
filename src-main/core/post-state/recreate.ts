import type { CreatePostRequest, Delivery, MediaRef } from '../../../src-shared/api/posts';

/**
 * What a new post needs to be this one again: its caption, title, media and every target, from its deliveries
 * (publish now, duplicate and retry make posts this way). Null when no delivery is known.
 */
export function recreateRequest(
  deliveries: readonly Delivery[],
): Omit<CreatePostRequest, 'action' | 'scheduled_at'> | null {
  const first = deliveries[0];
  if (!first) return null;
  const media: MediaRef[] = (first.media ?? []).map((m) =>
    m.asset_id ? { asset_id: m.asset_id } : { url: m.url },
  );
  const seen = new Set<string>();
  const targets = deliveries.flatMap((d) => {
    if (seen.has(d.social_account_id)) return [];
    seen.add(d.social_account_id);
    return [{ platform: d.platform, social_account_id: d.social_account_id }];
  });
  const title = (first as { title?: unknown }).title;
  return {
    caption: first.caption,
    ...(typeof title === 'string' && title ? { title } : {}),
    ...(media.length ? { media } : {}),
    targets,
  };
}
