import type { Delivery, Target } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { insertRows, nextSeq } from '../db';
import type { DeliveryRow } from './records';

/**
 * Posts and deliveries checked and numbered, waiting to be written in one statement per table and size:
 * their values, row after row (insertRows).
 */
export interface PendingRows {
  readonly posts: unknown[];
  readonly deliveries: unknown[];
}

export const POST_COLUMNS = [
  'id',
  'owner_id',
  'caption',
  'title',
  'media',
  'source',
  'batch_id',
  'item_key',
  'run_id',
  'created_at',
  'updated_at',
  'seq',
] as const;
const DELIVERY_COLUMNS = [
  'id',
  'post_id',
  'owner_id',
  'social_account_id',
  'platform',
  'settings',
  'caption',
  'status',
  'scheduled_at',
  'next_attempt_at',
  'attempts',
  'published_at',
  'external_url',
  'direct_upload_id',
  'created_at',
  'updated_at',
  'seq',
] as const;

export function writePendingRows(ctx: SandboxContext, pending: PendingRows): void {
  insertRows(ctx.db, 'posts', POST_COLUMNS, pending.posts);
  insertRows(ctx.db, 'deliveries', DELIVERY_COLUMNS, pending.deliveries);
  pending.posts.length = 0;
  pending.deliveries.length = 0;
}

/** Writes one delivery row now, or adds its values to `pending` (a caller's batch). */
export function insertDelivery(
  ctx: SandboxContext,
  pending: PendingRows | undefined,
  d: {
    id: string;
    postId: string;
    ownerId: string;
    target: Target;
    caption: string;
    status: Delivery['status'];
    scheduledAt: string | null;
    nextAttemptAt: string | null;
    iso: string;
    /** A delivery published elsewhere already: one attempt, its time and address. */
    posted?: { at: string; externalUrl: string; directUploadId: string };
  },
): DeliveryRow {
  const row: DeliveryRow = {
    id: d.id,
    post_id: d.postId,
    owner_id: d.ownerId,
    social_account_id: d.target.social_account_id,
    platform: d.target.platform,
    settings: JSON.stringify(d.target.settings ?? {}),
    caption: d.caption,
    status: d.status,
    scheduled_at: d.scheduledAt,
    next_attempt_at: d.nextAttemptAt,
    attempts: d.posted ? 1 : 0,
    last_error: null,
    published_at: d.posted?.at ?? null,
    external_url: d.posted?.externalUrl ?? null,
    direct_upload_id: d.posted?.directUploadId ?? null,
    created_at: d.iso,
    updated_at: d.iso,
  };
  const values = [
    row.id,
    row.post_id,
    row.owner_id,
    row.social_account_id,
    row.platform,
    row.settings,
    row.caption,
    row.status,
    row.scheduled_at,
    row.next_attempt_at,
    row.attempts,
    row.published_at,
    row.external_url,
    row.direct_upload_id,
    row.created_at,
    row.updated_at,
    nextSeq(ctx.db),
  ];
  if (pending) pending.deliveries.push(...values);
  else insertRows(ctx.db, 'deliveries', DELIVERY_COLUMNS, values);
  return row;
}
