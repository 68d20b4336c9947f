import { DELETABLE_STATUSES, canDo } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt, transact } from '../db';
import { SandboxError, notFound } from '../errors';
import { deliveriesOf, getDeliveryRow, getPostRow } from './post-reads';

/**
 * `DELETE /api/cli/posts` by delivery id (a parent id removes every delivery of the post). Deletable
 * statuses are the transition table's (`canDo(status, 'delete')`); others answer 409 POST_NOT_DELETABLE.
 */
export function deletePost(ctx: SandboxContext, ownerId: string, id: string): void {
  const delivery = getDeliveryRow(ctx, ownerId, id);
  const postId = delivery?.post_id ?? (getPostRow(ctx, ownerId, id) ? id : null);
  if (!postId) throw notFound('post');
  const targets = delivery ? [delivery] : deliveriesOf(ctx, postId);
  const blocked = targets.find((d) => !canDo(d.status, 'delete'));
  if (blocked) {
    throw new SandboxError(
      409,
      'POST_NOT_DELETABLE',
      `delivery ${blocked.id} is ${blocked.status}; only ${DELETABLE_STATUSES.join(', ')} deliveries can be deleted`,
    );
  }
  const db = ctx.db;
  transact(db, () => {
    for (const d of targets) stmt(db, 'DELETE FROM deliveries WHERE id = ?').run(d.id);
    const left = (
      stmt(db, 'SELECT COUNT(*) AS n FROM deliveries WHERE post_id = ?').get(postId) as { n: number }
    ).n;
    if (left === 0) stmt(db, 'DELETE FROM posts WHERE id = ?').run(postId);
  });
}
