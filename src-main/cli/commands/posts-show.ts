import type { Command } from 'commander';
import { LIMITS } from '../../../src-shared/api/limits';
import type { Delivery } from '../../../src-shared/api/posts';
import type { CliDeps } from '../context';
import { NotFoundError } from '../exit-codes';
import { findPost, knownPosts } from '../known-posts';
import { truncate, type Output } from '../output';
import { postId } from '../args';
import { accountLabel, accountNames } from '../names';

/** `posts list` rows: one per delivery. */
export function printDeliveries(out: Output, posts: readonly Delivery[]): void {
  out.table(
    ['id', 'post', 'platform', 'status', 'scheduled', 'caption'],
    posts.map((p) => [p.id, p.post_id, p.platform, p.status, p.scheduled_at ?? '', truncate(p.caption, 40)]),
  );
}

/**
 * `posts show <id>`: one post and all its deliveries, by delivery or post id, wherever it lies: the local index
 * first, then the service's lists by status and platform (`findPost`).
 */
export async function showPost(deps: CliDeps, cmd: Command, given: string): Promise<void> {
  const id = postId(given, 'id');
  const out = deps.output(cmd);
  const core = await deps.core(cmd);
  const known = await out.spin('looking the post up', () => knownPosts(core, deps.log));
  const deliveries = await out.spin('looking the post up', () => findPost(known, id));
  const first = deliveries[0];
  if (!first) {
    throw new NotFoundError(
      known.stale
        ? `no post or delivery ${id} among the posts seen on this machine, and the service could not be asked now`
        : `no post or delivery ${id}: not among the posts seen on this machine, nor the newest ${LIMITS.pageSizeMax} the service lists for each status on each platform (see \`postdesk posts list --all\`)`,
    );
  }
  const names = await accountNames(core);
  out.result({ post_id: first.post_id, caption: first.caption, deliveries }, () => {
    out.fields([
      ['post', first.post_id],
      ['caption', truncate(first.caption, 200)],
    ]);
    out.table(
      ['delivery', 'platform', 'account', 'status', 'scheduled', 'published', 'last error'],
      deliveries.map((d) => [
        d.id,
        d.platform,
        accountLabel(names, d.social_account_id),
        d.status,
        d.scheduled_at ?? '',
        d.published_at ?? '',
        d.last_error ? truncate(d.last_error, 60) : '',
      ]),
    );
  });
}

export interface ListOpts {
  status?: string;
  platform?: string;
  limit?: number;
  page?: number;
  all?: boolean;
}

/** Rows a page of `--all` prints at once: each its own table, so nothing waits for the last row. */
const STREAM_PAGE = 100;

/**
 * `posts list --all` and `--page n`: read from the local index after a refresh (as `export posts`), so they reach
 * past the newest 100 the service lists. `--all` prints page after page as it reads; `--json` gives one document.
 */
export async function listPostPages(deps: CliDeps, cmd: Command, o: ListOpts): Promise<void> {
  const out = deps.output(cmd);
  const core = await deps.core(cmd);
  const known = await out.spin('listing posts', () => knownPosts(core, deps.log));
  if (known.stale) out.note('could not reach the service; listing the posts seen before');
  const q = { scope: known.scope, status: o.status, platform: o.platform, order: 'newest' as const };
  if (!o.all) {
    const limit = o.limit ?? LIMITS.pageSizeDefault.posts;
    const page = o.page ?? 1;
    const res = known.index.queryDeliveries({ ...q, offset: (page - 1) * limit, limit });
    const pages = Math.max(1, Math.ceil(res.total / limit));
    out.result({ posts: res.items, page, pages, total: res.total }, () => {
      printDeliveries(out, res.items);
      out.note(
        `page ${page} of ${pages} (${res.total} deliveries; --page n for another, --all for every one)`,
      );
    });
    return;
  }
  const all: Delivery[] = [];
  let total = 0;
  for (let offset = 0; ; offset += STREAM_PAGE) {
    const res = known.index.queryDeliveries({ ...q, offset, limit: STREAM_PAGE });
    total = res.total;
    if (out.json) all.push(...res.items);
    else if (res.items.length) printDeliveries(out, res.items);
    if (res.items.length < STREAM_PAGE) break;
    // Between pages the event loop turns: a pipe drains, a reader that closed early is heard.
    await new Promise<void>((r) => setImmediate(r));
  }
  out.result({ posts: all, total }, () => out.note(`${total} deliveries`));
}
