import { STILL_SCHEDULED_STATUSES, type Account, type Delivery, type ParentPost } from '../../src-shared/api';

/**
 * The statuses the service still tries to send, as an SQL `IN (…)` list, from the transition table's
 * STILL_SCHEDULED_STATUSES: a fixed enum of plain words, so quoting them is all it takes.
 */
export const STILL_SCHEDULED_SQL = STILL_SCHEDULED_STATUSES.map((s) => `'${s}'`).join(', ');

/** Rows as better-sqlite3 returns them (see db.ts). */
export interface AccountRow {
  id: string;
  owner_id: string;
  platform: Account['platform'];
  name: string;
  token_expired: number;
  publish_failures: number;
  created_at: string;
}

export interface PostRow {
  id: string;
  owner_id: string;
  caption: string;
  title: string | null;
  media: string;
  source: string;
  batch_id: string | null;
  item_key: string | null;
  /** The automation run that made the post, if one did. */
  run_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  id: string;
  post_id: string;
  owner_id: string;
  social_account_id: string;
  platform: Delivery['platform'];
  settings: string;
  caption: string;
  status: Delivery['status'];
  scheduled_at: string | null;
  next_attempt_at: string | null;
  attempts: number;
  last_error: string | null;
  published_at: string | null;
  external_url: string | null;
  /** Set when a run published this delivery itself, through a direct upload. */
  direct_upload_id: string | null;
  created_at: string;
  updated_at: string;
}

export type PostMedia = {
  asset_id?: string;
  url: string;
  mime_type?: string;
};

/** Most deliveries have no settings and many posts no media: those need no parser. */
const parseObject = (text: string): Record<string, unknown> =>
  text === '{}' ? {} : (JSON.parse(text) as Record<string, unknown>);
const parseMedia = (text: string): PostMedia[] => (text === '[]' ? [] : (JSON.parse(text) as PostMedia[]));

export function accountJson(row: AccountRow): Account {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    created_at: row.created_at,
    token_expired: row.token_expired === 1,
  };
}

export function deliveryJson(row: DeliveryRow, post: Pick<PostRow, 'media' | 'title' | 'run_id'>): Delivery {
  return {
    id: row.id,
    post_id: row.post_id,
    status: row.status,
    platform: row.platform,
    social_account_id: row.social_account_id,
    caption: row.caption,
    title: post.title,
    media: parseMedia(post.media),
    settings: parseObject(row.settings),
    scheduled_at: row.scheduled_at,
    next_attempt_at: row.next_attempt_at,
    published_at: row.published_at,
    attempts: row.attempts,
    last_error: row.last_error,
    external_url: row.external_url,
    run_id: post.run_id,
    direct_upload_id: row.direct_upload_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function postJson(row: PostRow, deliveries: readonly DeliveryRow[]): ParentPost {
  return {
    id: row.id,
    caption: row.caption,
    title: row.title,
    media: parseMedia(row.media),
    source: row.source,
    batch_id: row.batch_id,
    item_key: row.item_key,
    run_id: row.run_id,
    social_post_ids: deliveries.map((d) => d.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
