import type { Command } from 'commander';
import { LIMITS } from '../../../src-shared/api/limits';
import { ValidationError } from '../../core/api/errors';
import { createDeliveryFeed } from '../../core/deliveries/delivery-feed';
import { MAX_PAGE } from '../../core/deliveries/delivery-index';
import { openChangePlans, intentOf } from '../../core/outbox/change-plans';
import {
  planShift,
  parseShift,
  scheduledTimeOf,
  type UpdateOutcome,
} from '../../core/post-changes/bulk-update';
import { sendRecorded } from '../../core/post-changes/recorded-update';
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
 * through the bulk update, with one result per post. The move is recorded in the outbox as its results (each
 * post's new time) before anything is sent; a lost answer is settled by asking again for that same time, and a
 * run killed or left with unknown outcomes is finished by the next run of the same command from that record, not
 * computed again from times that may already have moved. Once a run's result was shown, running it again moves again.
 */
// eslint-disable-next-line max-lines-per-function -- one command's procedure read in the order a person sees its output (select, plan, confirm, record, send, report)
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
  const plans = openChangePlans(core.store, scope);
  // What this command asks, on this service: an earlier run of it that did not finish is finished, not redone.
  const intent = intentOf({
    command: 'posts update --shift',
    by_ms: byMs,
    status: opts.status ?? 'scheduled',
    platform: opts.platform,
    account: opts.account,
    from,
    to,
  });
  const earlier = opts.dryRun ? null : plans.unfinished(intent);
  if (earlier) {
    if (earlier.state === 'open')
      out.note(
        `finishing this same move, which an earlier run left unfinished: ${earlier.items.length} post(s), each to the time recorded then; none moves twice`,
      );
    else
      out.note(
        'an earlier run already made this move but did not show its result: here it is. Run the command again to move again.',
      );
    await finish(earlier.id, earlier.state === 'open');
    return;
  }

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
    platforms: [...new Set(g.deliveries.map((d) => d.platform))].sort(),
  }));
  const plan = planShift(posts, byMs);
  const platformsOf = new Map(posts.map((p) => [p.post_id, p.platforms]));
  const before = new Map(posts.map((p) => [p.post_id, p.scheduled_at]));
  // The service moves every still-scheduled delivery of a post together: a platform filter picks posts, not parts.
  const whole =
    opts.platform || opts.account
      ? `--${opts.platform ? 'platform' : 'account'} picks the posts; each moves whole, on every account it goes to (the service moves a post's scheduled deliveries together)`
      : null;

  if (opts.dryRun || (plan.updates.length > CONFIRM_OVER && !opts.yes)) {
    const json = {
      dry_run: true,
      total: plan.updates.length,
      updates: plan.updates.map((u) => ({
        post_id: u.post_id,
        platforms: platformsOf.get(u.post_id) ?? [],
        from: before.get(u.post_id),
        to: u.scheduled_at,
      })),
    };
    out.result(json, () => {
      out.table(
        ['post', 'platforms', 'scheduled', 'moves to', 'caption'],
        plan.updates.map((u) => [
          u.post_id,
          (platformsOf.get(u.post_id) ?? []).join(', '),
          before.get(u.post_id),
          u.scheduled_at,
          truncate(captionOf(u.post_id), 40),
        ]),
      );
      if (whole) out.note(whole);
      if (opts.dryRun) out.note(`${plan.updates.length} post(s) would move; nothing was sent`);
      else out.warn(`${plan.updates.length} posts would move: run again with --yes to move them`);
    });
    if (!opts.dryRun) deps.setExitCode(EXIT.other);
    return;
  }

  // Recorded as results (each post's new time) before a byte is sent.
  const recorded = plans.record(
    intent,
    plan.updates.map((u) => ({ postId: u.post_id, update: u, before: before.get(u.post_id) ?? null })),
  );
  if (whole) out.note(whole);
  await finish(recorded.id, false, plan.skipped);

  async function finish(planId: string, resumed: boolean, skipped: readonly UpdateOutcome[] = []) {
    const sent = await out.spin('moving the posts', () => sendRecorded(client, plans, planId));
    const items = sent.plan.items;
    const results = [
      ...items.map((i) => ({
        post_id: i.postId,
        ok: i.state === 'done',
        state: i.state === 'done' ? 'moved' : i.state === 'unknown' ? 'unknown' : 'failed',
        from: i.before,
        scheduled_at: i.state === 'done' ? (i.update.scheduled_at ?? null) : null,
        error: i.state === 'done' ? null : i.error,
        code: i.state === 'done' ? null : i.code,
      })),
      ...skipped.map((o) => ({
        post_id: o.post_id,
        ok: false,
        state: 'failed',
        from: null,
        scheduled_at: null,
        error: o.error,
        code: o.code,
      })),
    ];
    const moved = results.filter((r) => r.state === 'moved').length;
    const unknown = results.filter((r) => r.state === 'unknown').length;
    const failedCount = results.length - moved - unknown;
    out.result(
      {
        total: results.length,
        updated: moved,
        failed: failedCount,
        unknown,
        requests: sent.requests,
        resumed,
        results,
      },
      () => {
        out.table(
          ['post', 'result', 'scheduled', 'caption / reason'],
          results.map((r) => [
            r.post_id,
            r.state,
            r.scheduled_at ?? r.from ?? '',
            r.ok ? truncate(captionOf(r.post_id), 40) : truncate(r.error ?? '', 80),
          ]),
        );
        out.line(
          `${moved} of ${results.length} post(s) moved in ${sent.requests} request(s)${failedCount ? `; ${failedCount} failed` : ''}${unknown ? `; ${unknown} unknown` : ''}`,
        );
        if (unknown)
          out.warn(
            `the service did not answer for ${unknown} post(s): run the same command again to finish them (each goes to the time recorded now, so none moves twice)`,
          );
      },
    );
    plans.reported(planId);
    if (unknown > 0) deps.setExitCode(EXIT.network);
    else if (failedCount > 0) deps.setExitCode(EXIT.other);
  }

  function captionOf(postId: string): string {
    return feed.index.ofPost(scope, postId)[0]?.caption ?? '';
  }
}
