import { z } from 'zod';
import {
  CreatePostRequest,
  LIMITS,
  Target,
  type CreatePostResponse,
  type Delivery,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { insertRows, nextSeq, transact } from '../db';
import { SandboxError } from '../errors';
import { uploadedAssetRef } from '../media/service';
import { parse } from '../validate';
import { attemptPublish, externalUrl } from './publisher';
import { postResponse } from './post-reads';
import {
  deliveryJson,
  postJson,
  type AccountRow,
  type DeliveryRow,
  type PostMedia,
  type PostRow,
} from './records';
import { targetIssues } from './targets';
import { POST_COLUMNS, insertDelivery, type PendingRows } from './write-rows';

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
