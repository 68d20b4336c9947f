import type { AnalyticsResponse, Metrics } from '../../../src-shared/api/analytics';
import type { ExportRecord } from './write-export';

/** One table for every part of the answer: `section` says which, the key columns which row of it. */
export const ANALYTICS_EXPORT_COLUMNS = [
  'section',
  'platform',
  'account_id',
  'date',
  'post_id',
  'impressions',
  'likes',
  'comments',
  'shares',
] as const;

const figures = (m: Metrics) => ({
  impressions: m.impressions,
  likes: m.likes,
  comments: m.comments,
  shares: m.shares,
});
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The analytics answer for the chosen filters as rows: totals, then by platform, account, day and top post. */
export function* analyticsRecords(res: Readonly<AnalyticsResponse>): Generator<ExportRecord> {
  yield { section: 'totals', ...figures(res.totals) };
  for (const p of res.by_platform ?? []) yield { section: 'platform', platform: p.platform, ...figures(p) };
  for (const a of res.by_account ?? [])
    yield { section: 'account', account_id: a.account_id, platform: text(a.platform), ...figures(a) };
  for (const d of res.by_day ?? []) yield { section: 'day', date: d.date, ...figures(d) };
  for (const p of res.top_posts ?? [])
    yield { section: 'post', post_id: p.post_id, platform: text(p.platform), ...figures(p) };
}
