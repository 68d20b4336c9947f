import { Option, type Command } from 'commander';
import { PLATFORMS } from '../../../src-shared/api/common';
import type { AnalyticsQuery } from '../../../src-shared/api/analytics';
import { LIMITS } from '../../../src-shared/api/limits';
import { localZoneOf, parseDateTime, positiveInt, zoneNote } from '../args';
import type { CliDeps } from '../context';
import { accountLabel, accountNames, captionSnippet, indexedCaptions } from '../names';

interface Opts {
  platform?: (typeof PLATFORMS)[number];
  account?: string;
  post?: string;
  from?: string;
  to?: string;
  limit?: number;
}

export function registerAnalyticsCommand(program: Command, deps: CliDeps): void {
  program
    .command('analytics')
    .description('impressions, likes, comments and shares: an overview, or one post with --post')
    .addOption(new Option('--platform <platform>').choices(PLATFORMS))
    .option('--account <id>', 'one account')
    .option('--post <id>', 'one post')
    .option('--from <date>', "start: 2026-01-01, 2026-01-01 09:00 (this machine's zone, or TZ) or ISO 8601")
    .option('--to <date>', 'end: a date alone includes that whole day')
    .option(
      '--limit <n>',
      `top posts, 1 to ${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeDefault.analytics})`,
      positiveInt('--limit', LIMITS.pageSizeMax),
    )
    .action(async (opts: Opts, cmd: Command) => {
      const out = deps.output(cmd);
      const query: AnalyticsQuery = {};
      if (opts.platform) query.platform = opts.platform;
      if (opts.account) query.account_id = opts.account;
      if (opts.post) query.post_id = opts.post;
      const zone = localZoneOf(deps.io.env);
      if (opts.from) query.start_date = parseDateTime(opts.from, 'from', { zone, day: 'start' });
      if (opts.to) query.end_date = parseDateTime(opts.to, 'to', { zone, day: 'end' });
      if (opts.limit) query.limit = opts.limit;
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
