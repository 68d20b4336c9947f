import type { CreatePostResponse } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { notFound } from '../errors';
import { deliveryJson, postJson, type DeliveryRow, type PostRow } from './records';

/** A post and its deliveries read back, by the owner's ids. */
export function getPostRow(ctx: SandboxContext, ownerId: string, postId: string): PostRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM posts WHERE id = ? AND owner_id = ?').get(postId, ownerId) as PostRow) ??
    null
  );
}

export function getDeliveryRow(ctx: SandboxContext, ownerId: string, id: string): DeliveryRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM deliveries WHERE id = ? AND owner_id = ?').get(
      id,
      ownerId,
    ) as DeliveryRow) ?? null
  );
}

export function deliveriesOf(ctx: SandboxContext, postId: string): DeliveryRow[] {
  return stmt(ctx.db, 'SELECT * FROM deliveries WHERE post_id = ? ORDER BY seq').all(postId) as DeliveryRow[];
}

export function postResponse(ctx: SandboxContext, ownerId: string, postId: string): CreatePostResponse {
  const post = getPostRow(ctx, ownerId, postId);
  if (!post) throw notFound('post');
  const deliveries = deliveriesOf(ctx, postId);
  return { post: postJson(post, deliveries), social_posts: deliveries.map((d) => deliveryJson(d, post)) };
}

/** A parent post id, or the parent of a delivery id; null when neither belongs to the owner. */
export function resolvePostId(ctx: SandboxContext, ownerId: string, id: string): string | null {
  if (getPostRow(ctx, ownerId, id)) return id;
  return getDeliveryRow(ctx, ownerId, id)?.post_id ?? null;
}
