import { Option, type Command } from 'commander';
import type { AnalyticsQuery } from '../../../src-shared/api/analytics';
import { PLATFORMS } from '../../../src-shared/api/common';
import { LIMITS } from '../../../src-shared/api/limits';
import { parseDateTime, positiveInt } from '../args';

/** The filters of `analytics` and `export analytics`, as commander hands them over. */
export interface AnalyticsFlags {
  platform?: (typeof PLATFORMS)[number];
  account?: string;
  post?: string;
  from?: string;
  to?: string;
  limit?: number;
}

/**
 * Declares the analytics filters on `cmd`, once for both commands: `--post` where one post can be asked for, and
 * `zoneWords`, the zone typed dates are read in as the command's help says it.
 */
export function analyticsFilterOptions(
  cmd: Command,
  o: { readonly post: boolean; readonly zoneWords: string },
): Command {
  cmd
    .addOption(new Option('--platform <platform>').choices(PLATFORMS))
    .option('--account <id>', 'one account');
  if (o.post) cmd.option('--post <id>', 'one post');
  return cmd
    .option('--from <date>', `start: 2026-01-01, 2026-01-01 09:00 (${o.zoneWords}) or ISO 8601`)
    .option('--to <date>', 'end: a date alone includes that whole day')
    .option(
      '--limit <n>',
      `top posts, 1 to ${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeDefault.analytics})`,
      positiveInt('--limit', LIMITS.pageSizeMax),
    );
}

/** The service's query for these filters, with typed dates read in `zone` (a date alone: the whole day). */
export function analyticsQuery(flags: AnalyticsFlags, zone: string): AnalyticsQuery {
  const query: AnalyticsQuery = {};
  if (flags.platform) query.platform = flags.platform;
  if (flags.account) query.account_id = flags.account;
  if (flags.post) query.post_id = flags.post;
  if (flags.from) query.start_date = parseDateTime(flags.from, 'from', { zone, day: 'start' });
  if (flags.to) query.end_date = parseDateTime(flags.to, 'to', { zone, day: 'end' });
  if (flags.limit) query.limit = flags.limit;
  return query;
}
