import { z } from 'zod';
import {
  CreatePostRequest,
  DELETABLE_STATUSES,
  EDITABLE_STATUSES,
  LIMITS,
  canDo,
  updateAction,
  whyNot,
  Target,
  UpdatePostRequest,
  type Account,
  type CreatePostResponse,
  type Delivery,
  type UpdatePostResponse,
} from '../../src-shared/api';
import { PLATFORM_RULES } from '../../src-shared/platform-rules';
import type { SandboxContext } from '../context';
import { insertRows, keptReads, nextSeq, stmt, transact } from '../db';
import { SandboxError, notFound } from '../errors';
import { uploadedAssetRef } from '../media/service';
import { parse } from '../validate';
import { attemptPublish, externalUrl } from './publisher';
import {
  accountJson,
  deliveryJson,
  postJson,
  type AccountRow,
  type DeliveryRow,
  type PostMedia,
  type PostRow,
} from './records';

// ---- accounts ----

export function listAccounts(ctx: SandboxContext, ownerId: string): Account[] {
  const rows = stmt(
    ctx.db,
    'SELECT * FROM accounts WHERE owner_id = ? ORDER BY created_at DESC, seq DESC',
  ).all(ownerId) as AccountRow[];
  return rows.map(accountJson);
}

/** The owner's accounts by id, for checking many targets with one read. */
export function accountsById(ctx: SandboxContext, ownerId: string): ReadonlyMap<string, AccountRow> {
  const rows = stmt(ctx.db, 'SELECT * FROM accounts WHERE owner_id = ?').all(ownerId) as AccountRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The owner's account, or null: a foreign id is indistinguishable from a missing one. Kept once read
 * (keptReads: accounts change only when a fixture is loaded, and any write there empties what is kept).
 */
export function getAccount(ctx: SandboxContext, ownerId: string, accountId: string): AccountRow | null {
  const kept = keptReads<AccountRow | null>(ctx.db, 'accounts');
  // The owner's length first: no owner id and account id run together into another pair's key.
  const key = `${ownerId.length}:${ownerId}${accountId}`;
  const known = kept.get(key);
  if (known !== undefined) return known;
  const row =
    (stmt(ctx.db, 'SELECT * FROM accounts WHERE id = ? AND owner_id = ?').get(accountId, ownerId) as
      AccountRow | undefined) ?? null;
  kept.set(key, row);
  return row;
}

// ---- shared checks ----

export const YOUTUBE_REFUSED =
  'youtube cannot be published or scheduled through /api/cli/posts; YouTube is reached through agent automations and direct uploads';

/** Checks targets against the owner's accounts; returns issues keyed by field path (empty when fine). */
export function targetIssues(
  ctx: SandboxContext,
  ownerId: string,
  targets: readonly Target[],
  opts: {
    path: string;
    allowYoutube?: boolean;
    existingAccountIds?: readonly string[];
    /** The owner's accounts when the caller has read them already (a bulk reads them once). */
    accounts?: ReadonlyMap<string, AccountRow>;
  },
): Record<string, string> {
  const issues: Record<string, string> = {};
  const seen = new Set(opts.existingAccountIds ?? []);
  targets.forEach((t, i) => {
    const at = `${opts.path}.${i}`;
    if (t.platform === 'youtube' && !opts.allowYoutube) {
      issues[`${at}.platform`] = YOUTUBE_REFUSED;
      return;
    }
    const account = opts.accounts
      ? (opts.accounts.get(t.social_account_id) ?? null)
      : getAccount(ctx, ownerId, t.social_account_id);
    if (!account) {
      issues[`${at}.social_account_id`] = 'no connected account with this id';
      return;
    }
    if (account.platform !== t.platform) {
      issues[`${at}.platform`] = `account ${account.id} is a ${account.platform} account, not ${t.platform}`;
      return;
    }
    if (seen.has(t.social_account_id)) {
      issues[`${at}.social_account_id`] =
        'this account is already a target of this post (one delivery per target)';
      return;
    }
    seen.add(t.social_account_id);
  });
  return issues;
}

/** Resolves media references to stored `{asset_id?, url}` entries; unknown or pending assets are issues. */
function resolveMedia(
  ctx: SandboxContext,
  ownerId: string,
  media: readonly ({ asset_id: string } | { url: string })[],
  issues: Record<string, string>,
): PostMedia[] {
  const out: PostMedia[] = [];
  media.forEach((m, i) => {
    if ('asset_id' in m) {
      const ref = uploadedAssetRef(ctx, ownerId, m.asset_id);
      if (!ref)
        issues[`media.${i}.asset_id`] =
          'no completed media upload with this id (reserve, PUT and complete it first)';
      else out.push(ref);
    } else {
      out.push({ url: m.url });
    }
  });
  return out;
}

const issuesError = (issues: Record<string, string>): SandboxError =>
  new SandboxError(
    400,
    undefined,
    Object.entries(issues)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
    issues,
  );

// ---- create ----

export interface CreateOptions {
  /** complete-local may create drafts for youtube targets; /api/cli/posts refuses them. */
  allowYoutube?: boolean;
  source?: 'api' | 'bulk' | 'automation';
  batchId?: string;
  itemKey?: string;
  /** The automation run the post comes from. */
  runId?: string;
  /** Deliveries the run already published itself (direct uploads): recorded as `posted`. */
  published?: readonly PublishedElsewhere[];
  /** The owner's accounts, read once by a caller creating many posts. */
  accounts?: ReadonlyMap<string, AccountRow>;
  /**
   * Rows to write later, all at once (writePendingRows), for a caller that writes many posts in one
   * transaction and reads none of them back meanwhile. Not for a post published now: its deliveries are
   * attempted, and so updated, as soon as they are written.
   */
  pending?: PendingRows;
}

/**
 * Posts and deliveries checked and numbered, waiting to be written in one statement per table and size:
 * their values, row after row (insertRows).
 */
export interface PendingRows {
  readonly posts: unknown[];
  readonly deliveries: unknown[];
}

const POST_COLUMNS = [
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

/** A target a run published through a direct upload, before the post existed. */
export interface PublishedElsewhere {
  target: Target;
  directUploadId: string;
  platformPostId: string;
  publishedAt: string;
}

/**
 * The post of an automation run. Its targets are those the service still publishes (or drafts); a run whose
 * every target was published by direct upload has none, and its post holds only the posted deliveries.
 */
const RunPostRequest = CreatePostRequest.extend({
  targets: z.array(Target).max(LIMITS.addTargetsPerUpdate),
});

export function createRunPost(
  ctx: SandboxContext,
  ownerId: string,
  body: Readonly<z.input<typeof RunPostRequest>>,
  opts: CreateOptions & { runId: string },
): CreatePostResponse {
  const input = parse(RunPostRequest, body, { postCreation: true });
  return createParsedPost(ctx, ownerId, input, { ...opts, source: 'automation' });
}

/** A parsed create request, as the bulk path hands it over (media by asset_id only). */
export interface CreateInput {
  caption: string;
  title?: string | undefined;
  media?: readonly ({ asset_id: string } | { url: string })[] | undefined;
  targets: readonly Target[];
  action?: 'draft' | undefined;
  scheduled_at?: string | undefined;
}

/**
 * `POST /api/cli/posts`: a parent post with one delivery per target. A draft stays `draft`; with
 * `scheduled_at` it is `scheduled`; otherwise it is published inline (`posted`, or `retry_scheduled`
 * when the account's simulated `publish_failures` make the first attempt fail). 400s are `{error, issues}`.
 */
export function createPost(
  ctx: SandboxContext,
  ownerId: string,
  body: Readonly<z.input<typeof CreatePostRequest>> | unknown,
  opts: CreateOptions = {},
): CreatePostResponse {
  const input = parse(CreatePostRequest, body, { postCreation: true });
  return createParsedPost(ctx, ownerId, input, opts);
}

export function createParsedPost(
  ctx: SandboxContext,
  ownerId: string,
  input: Readonly<CreateInput>,
  opts: CreateOptions = {},
): CreatePostResponse {
  const created = insertParsedPost(ctx, ownerId, input, opts);
  // Published inline, the deliveries changed after they were written: read them back. Otherwise the rows
  // written are the answer, without a second read.
  if (created.publishedNow) return postResponse(ctx, ownerId, created.postId);
  return {
    post: postJson(created.post, created.deliveries),
    social_posts: created.deliveries.map((d) => deliveryJson(d, created.post)),
  };
}

/**
 * Checks and writes a post and its deliveries; answers their ids only (bulk needs no more). Inside a
 * caller's transaction it writes in place: every check runs before the first write, so an item never
 * needs a savepoint of its own.
 */
export function insertParsedPost(
  ctx: SandboxContext,
  ownerId: string,
  input: Readonly<CreateInput>,
  opts: CreateOptions = {},
): {
  postId: string;
  deliveryIds: string[];
  post: PostRow;
  deliveries: DeliveryRow[];
  /** True when the deliveries were attempted inline (and so no longer match `deliveries`). */
  publishedNow: boolean;
} {
  const now = ctx.clock.now();
  const iso = now.toISOString();
  const issues = targetIssues(ctx, ownerId, input.targets, {
    path: 'targets',
    allowYoutube: opts.allowYoutube ?? false,
    ...(opts.accounts ? { accounts: opts.accounts } : {}),
  });
  const media = resolveMedia(ctx, ownerId, input.media ?? [], issues);
  if (input.scheduled_at !== undefined && input.action !== 'draft' && new Date(input.scheduled_at) <= now) {
    issues.scheduled_at = `must be in the future (the sandbox clock says ${iso})`;
  }
  if (Object.keys(issues).length > 0) throw issuesError(issues);

  const scheduledAt = input.scheduled_at !== undefined ? new Date(input.scheduled_at).toISOString() : null;
  // Publish-now deliveries are inserted as scheduled-for-now, then attempted inline below.
  const status: Delivery['status'] = input.action === 'draft' ? 'draft' : 'scheduled';
  const publishNow = input.action !== 'draft' && scheduledAt === null;
  if (publishNow && opts.pending) throw new Error('a post published now cannot wait to be written');
  const post: PostRow = {
    id: ctx.uuid(),
    owner_id: ownerId,
    caption: input.caption,
    title: input.title ?? null,
    media: JSON.stringify(media),
    source: opts.source ?? 'api',
    batch_id: opts.batchId ?? null,
    item_key: opts.itemKey ?? null,
    run_id: opts.runId ?? null,
    created_at: iso,
    updated_at: iso,
  };
  const deliveries: DeliveryRow[] = [];
  const db = ctx.db;
  const write = (): void => {
    const values = [
      post.id,
      post.owner_id,
      post.caption,
      post.title,
      post.media,
      post.source,
      post.batch_id,
      post.item_key,
      post.run_id,
      post.created_at,
      post.updated_at,
      nextSeq(db),
    ];
    if (opts.pending) opts.pending.posts.push(...values);
    else insertRows(db, 'posts', POST_COLUMNS, values);
    for (const target of input.targets) {
      const row = insertDelivery(ctx, opts.pending, {
        id: ctx.uuid(),
        postId: post.id,
        ownerId,
        target,
        caption: input.caption,
        status,
        scheduledAt,
        nextAttemptAt: input.action === 'draft' ? null : (scheduledAt ?? iso),
        iso,
      });
      deliveries.push(row);
      if (publishNow) attemptPublish(ctx, row, now);
    }
    for (const p of opts.published ?? []) {
      deliveries.push(
        insertDelivery(ctx, opts.pending, {
          id: ctx.uuid(),
          postId: post.id,
          ownerId,
          target: p.target,
          caption: input.caption,
          status: 'posted',
          scheduledAt: null,
          nextAttemptAt: null,
          iso,
          posted: {
            at: p.publishedAt,
            externalUrl: externalUrl(p.target.platform, p.platformPostId),
            directUploadId: p.directUploadId,
          },
        }),
      );
    }
  };
  if (db.inTransaction) write();
  else transact(db, write);
  return {
    postId: post.id,
    deliveryIds: deliveries.map((d) => d.id),
    post,
    deliveries,
    publishedNow: publishNow,
  };
}

function insertDelivery(
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

// ---- read ----

function getPostRow(ctx: SandboxContext, ownerId: string, postId: string): PostRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM posts WHERE id = ? AND owner_id = ?').get(postId, ownerId) as PostRow) ??
    null
  );
}

function getDeliveryRow(ctx: SandboxContext, ownerId: string, id: string): DeliveryRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM deliveries WHERE id = ? AND owner_id = ?').get(
      id,
      ownerId,
    ) as DeliveryRow) ?? null
  );
}

function deliveriesOf(ctx: SandboxContext, postId: string): DeliveryRow[] {
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

// ---- update ----

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

// ---- delete ----

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
