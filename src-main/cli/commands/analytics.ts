import type { Command } from 'commander';
import { localZoneOf, zoneNote } from '../args';
import { analyticsFilterOptions, analyticsQuery, type AnalyticsFlags } from './analytics-filters';
import type { CliDeps } from '../context';
import { accountLabel, accountNames, captionSnippet, indexedCaptions } from '../names';

export function registerAnalyticsCommand(program: Command, deps: CliDeps): void {
  analyticsFilterOptions(
    program
      .command('analytics')
      .description('impressions, likes, comments and shares: an overview, or one post with --post'),
    { post: true, zoneWords: "this machine's zone, or TZ" },
  ).action(async (opts: AnalyticsFlags, cmd: Command) => {
    const out = deps.output(cmd);
    const zone = localZoneOf(deps.io.env);
    const query = analyticsQuery(opts, zone);
    const core = await deps.core(cmd);
    const res = await out.spin('fetching analytics', () => core.client.analytics(query));
    const top = res.top_posts ?? [];
    // Names beside the ids: the caption the answer carries, else this machine's index; the account's name.
    const names = top.length && !out.json ? await accountNames(core) : new Map<string, string>();
    const captions = out.json
      ? new Map<string, string>()
      : indexedCaptions(
          core,
          deps.log,
          top.map((p) => p.post_id),
        );
    out.result(res, () => {
      // Dates typed without an offset were read in a zone: the answer says which.
      if (zoneNote(opts.from ?? '', zone) || zoneNote(opts.to ?? '', zone)) {
        const to =
          opts.to === undefined
            ? 'now'
            : /^\d{4}-\d{2}-\d{2}$/.test(opts.to.trim())
              ? `${opts.to.trim()} (the whole day)`
              : opts.to.trim();
        out.line(`from ${opts.from?.trim() ?? 'the start'} to ${to}, ${zone} time`);
      }
      const t = res.totals;
      out.line(out.colors.bold('totals'));
      out.table(
        ['impressions', 'likes', 'comments', 'shares'],
        [[t.impressions, t.likes, t.comments, t.shares]],
      );
      if (res.by_platform?.length) {
        out.line(out.colors.bold('by platform'));
        out.table(
          ['platform', 'impressions', 'likes', 'comments', 'shares'],
          res.by_platform.map((p) => [p.platform, p.impressions, p.likes, p.comments, p.shares]),
        );
      }
      if (res.top_posts?.length) {
        out.line(out.colors.bold('top posts'));
        // One row per delivery: a post on two platforms appears twice, so the platform tells the rows apart.
        out.table(
          ['post', 'caption', 'account', 'platform', 'impressions', 'likes', 'comments', 'shares'],
          res.top_posts.map((p) => [
            p.post_id,
            captionSnippet(typeof p.caption === 'string' ? p.caption : (captions.get(p.post_id) ?? '')),
            typeof p.social_account_id === 'string' ? accountLabel(names, p.social_account_id) : '',
            typeof p.platform === 'string' ? p.platform : '',
            p.impressions,
            p.likes,
            p.comments,
            p.shares,
          ]),
        );
      }
    });
  });
}
