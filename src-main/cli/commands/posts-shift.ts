import type { Command } from 'commander';
import { LIMITS } from '../../../src-shared/api/limits';
import { ValidationError } from '../../core/api/errors';
import { createDeliveryFeed } from '../../core/deliveries/delivery-feed';
import { MAX_PAGE } from '../../core/deliveries/delivery-index';
import { planShift, parseShift, scheduledTimeOf, updateInBatches } from '../../core/post-changes/bulk-update';
import { parseDateTime } from '../args';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';
import { truncate } from '../output';

export interface ShiftOptions {
  shift: string;
  status?: string;
  platform?: string;
  account?: string;
  from?: string;
  to?: string;
  dryRun?: boolean;
  yes?: boolean;
}

/** More posts than this are only moved with `--yes` (one batch of the bulk update, the contract's limit). */
const CONFIRM_OVER = LIMITS.bulkUpdateSize;

/**
 * `posts update --shift 2d [filters]`: every post with a delivery matching the filters (read from the local index
 * after a refresh from the service, as the app's Posts screen reads it) moved by the same amount, 100 a request
 * through the bulk update, with one result per post. Times are computed once, so running it again moves again,
 * but a failed entry retried by hand is never moved twice by one run.
 */
export async function shiftPosts(deps: CliDeps, cmd: Command, opts: ShiftOptions): Promise<void> {
  const out = deps.output(cmd);
  const byMs = parseShift(opts.shift);
  if (byMs === null || byMs === 0) {
    throw new ValidationError(
      [
        {
          path: 'shift',
          message: `"${opts.shift}" must be a non-zero amount of days, hours or minutes: 2d, -3h, 90m`,
        },
      ],
      null,
      'argument',
    );
  }
  const from = opts.from === undefined ? undefined : parseDateTime(opts.from, 'from');
  const to = opts.to === undefined ? undefined : parseDateTime(opts.to, 'to');
  const core = await deps.core(cmd);
  const scope = core.endpoint.sandbox ? 'sandbox' : core.endpoint.baseUrl;
  // The refresh lists through the learning client, so what it lists lands in the index.
  const feed = createDeliveryFeed({ store: core.store, client: () => client, scope: () => scope });
  const client = feed.observe(core.client, () => scope);
  await out.spin('reading the posts', () => feed.refresh({ force: true }));
  const page = feed.index.queryPosts({
    scope,
    // Only a scheduled post has a time the bulk update can move.
    status: opts.status ?? 'scheduled',
    platform: opts.platform,
    account: opts.account,
    from,
    to,
    limit: MAX_PAGE,
  });
  const posts = page.groups.map((g) => ({
    post_id: g.post_id,
    scheduled_at: scheduledTimeOf(g.deliveries),
    caption: g.deliveries[0]?.caption ?? '',
  }));
  const plan = planShift(posts, byMs);
  const captionOf = new Map(posts.map((p) => [p.post_id, p.caption]));
  const before = new Map(posts.map((p) => [p.post_id, p.scheduled_at]));

  if (opts.dryRun || (plan.updates.length > CONFIRM_OVER && !opts.yes)) {
    const json = {
      dry_run: true,
      total: plan.updates.length,
      updates: plan.updates.map((u) => ({
        post_id: u.post_id,
        from: before.get(u.post_id),
        to: u.scheduled_at,
      })),
    };
    out.result(json, () => {
      out.table(
        ['post', 'scheduled', 'moves to', 'caption'],
        plan.updates.map((u) => [
          u.post_id,
          before.get(u.post_id),
          u.scheduled_at,
          truncate(captionOf.get(u.post_id) ?? '', 40),
        ]),
      );
      if (opts.dryRun) out.note(`${plan.updates.length} post(s) would move; nothing was sent`);
      else out.warn(`${plan.updates.length} posts would move: run again with --yes to move them`);
    });
    if (!opts.dryRun) deps.setExitCode(EXIT.other);
    return;
  }

  let requests = 0;
  const outcomes = await out.spin(`moving ${plan.updates.length} post(s)`, () =>
    updateInBatches(
      {
        bulkUpdate: (body, o) => {
          requests += 1;
          return client.bulkUpdate(body, o);
        },
      },
      plan.updates,
    ),
  );
  const results = [...outcomes, ...plan.skipped].map((o, i) => ({
    post_id: o.post_id,
    ok: o.ok,
    scheduled_at: o.ok ? (plan.updates[i]?.scheduled_at ?? null) : null,
    error: o.error,
    code: o.code,
  }));
  const failedCount = results.filter((r) => !r.ok).length;
  out.result(
    { total: results.length, updated: results.length - failedCount, failed: failedCount, requests, results },
    () => {
      out.table(
        ['post', 'result', 'scheduled', 'caption / reason'],
        results.map((r) => [
          r.post_id,
          r.ok ? 'moved' : 'failed',
          r.scheduled_at ?? before.get(r.post_id) ?? '',
          r.ok ? truncate(captionOf.get(r.post_id) ?? '', 40) : truncate(r.error ?? '', 80),
        ]),
      );
      out.line(
        `${results.length - failedCount} of ${results.length} post(s) moved in ${requests} request(s)${failedCount ? `; ${failedCount} failed` : ''}`,
      );
    },
  );
  if (failedCount > 0) deps.setExitCode(EXIT.other);
}
