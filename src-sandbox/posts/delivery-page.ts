import { z } from 'zod';
import { DeliveryStatus, LIMITS, ListPostsQuery, type ListPostsResponse } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { JsonText } from '../json-text';
import { parse } from '../validate';
import { deliveryJson, type DeliveryRow, type PostRow } from './records';

const StatusFilter = z.object({ status: DeliveryStatus.optional() });

type PostPart = Pick<PostRow, 'media' | 'title' | 'run_id'>;
const POST_PARTS_KEPT = 10_000;
const postParts = new WeakMap<SandboxContext['db'], Map<string, PostPart>>();

/**
 * What a delivery shows of its parent post. Those fields never change once the post is written, so they are
 * kept in memory (bounded) and a page of deliveries is read without joining the posts table; the ids are
 * never reused, so a kept entry of a deleted post is simply never asked for again.
 */
function partsOf(ctx: SandboxContext, postIds: readonly string[]): Map<string, PostPart> {
  let kept = postParts.get(ctx.db);
  if (!kept) {
    kept = new Map();
    postParts.set(ctx.db, kept);
  }
  let missing = [...new Set(postIds.filter((id) => !kept.has(id)))];
  if (missing.length > 0 && kept.size + missing.length > POST_PARTS_KEPT) {
    // Emptied to stay bounded: then the whole page is missing, not only what was missing before.
    kept.clear();
    missing = [...new Set(postIds)];
  }
  if (missing.length > 0) {
    const rows = stmt(
      ctx.db,
      'SELECT id, media, title, run_id FROM posts WHERE id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(missing)) as (PostPart & { id: string })[];
    for (const { id, ...part } of rows) kept.set(id, part);
  }
  return kept;
}

/** One version of one delivery row, and the JSON text the listing made of it. */
interface KeptText {
  seq: number;
  rev: number;
  json: string;
}
const TEXTS_KEPT = 20_000;
const deliveryTexts = new WeakMap<SandboxContext['db'], Map<string, KeptText>>();

/** The page's rows in order: what identifies each version, not the row itself. */
type PageEntry = [id: string, seq: number, rev: number, postId: string];

/**
 * `GET /api/cli/posts`: the owner's deliveries, newest first, as the JSON text of the answer.
 *
 * Reading 50 full rows into objects and serializing them again was most of what a listing cost, though
 * between two listings few deliveries change. So the page is read as ids with their `seq` (unique to one
 * row, never reused) and `rev` (counted up by a trigger on every UPDATE, migration 4), and a delivery's
 * text is reused while both match; only rows new or changed since are read in full and serialized.
 * The text is byte for byte what `JSON.stringify` makes of the same answer.
 */
export function listPostsText(
  ctx: SandboxContext,
  ownerId: string,
  query: unknown,
): JsonText<ListPostsResponse> {
  const q = parse(ListPostsQuery, query);
  const { status } = parse(StatusFilter, { status: q.status });
  const db = ctx.db;
  const page = stmt(
    db,
    `SELECT id, seq, rev, post_id FROM deliveries
     WHERE owner_id = @owner AND (@status IS NULL OR status = @status) AND (@platform IS NULL OR platform = @platform)
     ORDER BY created_at DESC, seq DESC LIMIT @limit`,
  )
    .raw(true)
    .all({
      owner: ownerId,
      status: status ?? null,
      platform: q.platform ?? null,
      limit: q.limit ?? LIMITS.pageSizeDefault.posts,
    }) as PageEntry[];

  let kept = deliveryTexts.get(db);
  if (!kept) {
    kept = new Map();
    deliveryTexts.set(db, kept);
  }
  const current = (e: PageEntry): boolean => {
    const k = kept.get(e[0]);
    return k !== undefined && k.seq === e[1] && k.rev === e[2];
  };
  let stale = page.filter((e) => !current(e));
  if (stale.length > 0 && kept.size + stale.length > TEXTS_KEPT) {
    // Emptied to stay bounded: then the whole page is read again.
    kept.clear();
    stale = page;
  }
  if (stale.length > 0) {
    const rows = stmt(db, 'SELECT * FROM deliveries WHERE id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(stale.map((e) => e[0])),
    ) as (DeliveryRow & { seq: number; rev: number })[];
    const parts = partsOf(
      ctx,
      rows.map((r) => r.post_id),
    );
    for (const r of rows) {
      const post = parts.get(r.post_id);
      // A delivery whose post is gone is not listed (and not kept, so it is looked at again).
      if (post) kept.set(r.id, { seq: r.seq, rev: r.rev, json: JSON.stringify(deliveryJson(r, post)) });
    }
  }
  const texts: string[] = [];
  for (const e of page) {
    // Every entry is current now, but for a delivery whose post is gone (never listed).
    if (current(e)) texts.push(kept.get(e[0])!.json);
  }
  return new JsonText(`{"posts":[${texts.join(',')}]}`);
}
