import {
  EDITABLE_STATUSES,
  canDo,
  updateAction,
  whyNot,
  UpdatePostRequest,
  type Delivery,
  type UpdatePostResponse,
} from '../../src-shared/api';
import { PLATFORM_RULES } from '../../src-shared/platform-rules';
import type { SandboxContext } from '../context';
import { stmt, transact } from '../db';
import { SandboxError, notFound } from '../errors';
import { parse } from '../validate';
import { deliveriesOf, getPostRow, postResponse, resolvePostId } from './post-reads';
import type { DeliveryRow } from './records';
import { targetIssues } from './targets';
import { insertDelivery } from './write-rows';

const invalidUpdate = (message: string): SandboxError =>
  new SandboxError(400, 'INVALID_POST_UPDATE', message);

/**
 * `PATCH /api/cli/posts` by delivery id or parent id. The editable deliveries of the parent (the
 * transition table's `edit`: draft and scheduled) change together. `status: "draft"` cancels the scheduled ones,
 * `status: "scheduled"` schedules the drafts (needs a future `scheduled_at`), `scheduled_at` moves the
 * scheduled ones, `caption` rewrites all editable ones, and `add_targets` adds deliveries in the
 * post's current editable status.
 */
export function updatePost(ctx: SandboxContext, ownerId: string, body: unknown): UpdatePostResponse {
  const u = parse(UpdatePostRequest, body, { code: 'INVALID_POST_UPDATE' });
  const postId = resolvePostId(ctx, ownerId, u.id);
  if (!postId) throw notFound('post');
  const now = ctx.clock.now();
  const iso = now.toISOString();
  if (u.scheduled_at !== undefined && u.scheduled_time !== undefined && u.scheduled_at !== u.scheduled_time) {
    throw invalidUpdate('scheduled_at and scheduled_time (its alias) disagree; send one of them');
  }
  const whenRaw = u.scheduled_at ?? u.scheduled_time;
  const when = whenRaw !== undefined ? new Date(whenRaw) : undefined;
  if (when && when <= now)
    throw invalidUpdate(`scheduled_at: must be in the future (the sandbox clock says ${iso})`);
  if (u.status === 'draft' && when)
    throw invalidUpdate('status "draft" cancels the schedule; do not send scheduled_at with it');

  // Which deliveries the update reaches, by the transition table (src-shared/api/delivery-transitions.ts):
  // the editable ones; of those, a schedule can be cancelled (moved back to draft) or given (a draft).
  const all = deliveriesOf(ctx, postId);
  const editable = all.filter((d) => canDo(d.status, 'edit'));
  if (editable.length === 0) {
    throw invalidUpdate(`nothing to update: the post has no ${EDITABLE_STATUSES.join(' or ')} delivery left`);
  }
  const scheduled = editable.filter((d) => canDo(d.status, 'cancel'));
  const drafts = editable.filter((d) => canDo(d.status, 'schedule'));
  // A cancel or a schedule needs a delivery the table lets it reach: else there is nothing to change.
  const action = updateAction(u);
  const first = all[0];
  if (action !== 'edit' && first && !all.some((d) => canDo(d.status, action))) {
    throw invalidUpdate(
      `status "${u.status}": ${whyNot(first.status, action, PLATFORM_RULES[first.platform].name)}`,
    );
  }
  if (u.status === 'scheduled' && drafts.length > 0 && !when) {
    throw invalidUpdate(
      'status "scheduled": scheduled_at (a future date-time) is required to schedule a draft',
    );
  }
  if (when && u.status !== 'scheduled' && scheduled.length === 0) {
    throw invalidUpdate(
      'scheduled_at: the post has no scheduled delivery; send status "scheduled" to schedule its drafts',
    );
  }
  if (u.add_targets) {
    const issues = targetIssues(ctx, ownerId, u.add_targets, {
      path: 'add_targets',
      existingAccountIds: all.map((d) => d.social_account_id),
    });
    if (Object.keys(issues).length > 0) {
      throw invalidUpdate(
        Object.entries(issues)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; '),
      );
    }
  }

  const db = ctx.db;
  transact(db, () => {
    const set = (d: DeliveryRow, status: Delivery['status'], scheduledAt: string | null) =>
      stmt(
        db,
        `UPDATE deliveries SET status = ?, scheduled_at = ?, next_attempt_at = ?, caption = ?, updated_at = ? WHERE id = ?`,
      ).run(
        status,
        scheduledAt,
        status === 'scheduled' ? scheduledAt : null,
        u.caption ?? d.caption,
        iso,
        d.id,
      );
    const whenIso = when?.toISOString() ?? null;
    for (const d of scheduled) {
      if (u.status === 'draft') set(d, 'draft', null);
      else set(d, 'scheduled', whenIso ?? d.scheduled_at);
    }
    for (const d of drafts) {
      if (u.status === 'scheduled') set(d, 'scheduled', whenIso);
      else set(d, 'draft', d.scheduled_at);
    }
    if (u.caption !== undefined) {
      stmt(db, 'UPDATE posts SET caption = ?, updated_at = ? WHERE id = ?').run(u.caption, iso, postId);
    } else {
      stmt(db, 'UPDATE posts SET updated_at = ? WHERE id = ?').run(iso, postId);
    }
    if (u.add_targets && u.add_targets.length > 0) {
      // New targets join the post's editable state: scheduled with the others, else draft.
      const after = deliveriesOf(ctx, postId).filter((d) => canDo(d.status, 'edit'));
      const model = after.find((d) => canDo(d.status, 'cancel')) ?? after[0];
      const status = model?.status ?? 'draft';
      const caption = u.caption ?? model?.caption ?? getPostRow(ctx, ownerId, postId)!.caption;
      for (const target of u.add_targets) {
        insertDelivery(ctx, undefined, {
          id: ctx.uuid(),
          postId,
          ownerId,
          target,
          caption,
          status,
          scheduledAt: model?.scheduled_at ?? null,
          nextAttemptAt: status === 'scheduled' ? (model?.scheduled_at ?? null) : null,
          iso,
        });
      }
    }
  });
  const response = postResponse(ctx, ownerId, postId);
  return { post_id: postId, post: response.post, social_posts: response.social_posts };
}
