import { useEffect, useMemo, type ReactNode } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import type { AnalyticsResponse, Metrics } from '../../../../src-shared/api/analytics';
import type { Platform } from '../../../../src-shared/api/common';
import { formatCompact, formatDay } from '../../app/format';
import { hrefOf, navigate, useRoute } from '../../app/router';
import { PLATFORM_META, PLATFORM_ORDER } from '../../app/platforms';
import { IconChart } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { PlatformLabel, PlatformMark } from '../../components/PlatformMark';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAnalyticsStore } from '../../stores/use-analytics-store';
import { useChartColors, type ChartColors } from './use-chart-colors';
import './analytics.css';

const METRICS = ['impressions', 'likes', 'comments', 'shares'] as const;
const METRIC_LABEL: Readonly<Record<(typeof METRICS)[number], string>> = {
  impressions: 'Impressions',
  likes: 'Likes',
  comments: 'Comments',
  shares: 'Shares',
};

/** `YYYY-MM-DD` of a local date input as the UTC instant of that local day's start (or end). */
const dayBound = (value: string, end: boolean): string | null => {
  if (!value) return null;
  const d = new Date(`${value}T00:00:00`);
  if (Number.isNaN(d.getTime())) return null;
  if (end) d.setDate(d.getDate() + 1);
  return d.toISOString();
};
const toDateInput = (iso: string | null, end: boolean): string => {
  if (!iso) return '';
  const d = new Date(iso);
  if (end) d.setDate(d.getDate() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function AnalyticsScreen() {
  const route = useRoute();
  const postId = route.params.get('post');
  return postId ? <PostFigures postId={postId} /> : <Overview />;
}

function Overview() {
  const { filters, overview, setFilters, load } = useAnalyticsStore(
    useShallow((s) => ({ filters: s.filters, overview: s.overview, setFilters: s.setFilters, load: s.load })),
  );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  const colors = useChartColors();
  useEffect(() => {
    void load();
    void ensureAccounts();
  }, [load, ensureAccounts]);

  const names = useMemo(() => new Map((accounts.data ?? []).map((a) => [a.id, a.name])), [accounts.data]);
  const data = overview.data;
  const preset = (days: number) => {
    const end = new Date();
    end.setHours(0, 0, 0, 0);
    end.setDate(end.getDate() + 1);
    const start = new Date(end);
    start.setDate(start.getDate() - days);
    setFilters({ start: start.toISOString(), end: end.toISOString() });
  };

  return (
    <div className="page">
      <PageHeader title="Analytics" subtitle="How your posts perform, by platform, account and day." />
      <div className="toolbar">
        <div className="field">
          <label className="field__label" htmlFor="an-platform">
            Platform
          </label>
          <select
            id="an-platform"
            className="select"
            value={filters.platform}
            onChange={(e) => setFilters({ platform: e.target.value as Platform | 'all' })}
          >
            <option value="all">All platforms</option>
            {PLATFORM_ORDER.map((p) => (
              <option key={p} value={p}>
                {PLATFORM_META[p].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="an-account">
            Account
          </label>
          <select
            id="an-account"
            className="select"
            value={filters.accountId}
            onChange={(e) => setFilters({ accountId: e.target.value })}
          >
            <option value="all">All accounts</option>
            {(accounts.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {PLATFORM_META[a.platform].label} · {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="an-from">
            From
          </label>
          <input
            id="an-from"
            className="input"
            type="date"
            value={toDateInput(filters.start, false)}
            onChange={(e) => setFilters({ start: dayBound(e.target.value, false) })}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="an-to">
            To
          </label>
          <input
            id="an-to"
            className="input"
            type="date"
            value={toDateInput(filters.end, true)}
            onChange={(e) => setFilters({ end: dayBound(e.target.value, true) })}
          />
        </div>
        <div className="btn-row" role="group" aria-label="Date presets">
          <button type="button" className="btn btn--small" onClick={() => preset(7)}>
            7 days
          </button>
          <button type="button" className="btn btn--small" onClick={() => preset(30)}>
            30 days
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => setFilters({ start: null, end: null })}
          >
            All time
          </button>
        </div>
      </div>

      {data === null && overview.loading ? (
        <LoadingState label="Loading figures…" />
      ) : data === null && overview.error ? (
        <ErrorState error={overview.error} title="Could not load analytics" onRetry={() => void load()} />
      ) : data ? (
        <>
          <Totals totals={data.totals} />
          {isEmpty(data) ? (
            <div className="card">
              <EmptyState title="No figures for this selection" icon={<IconChart size={20} />}>
                Published posts collect impressions and engagement; widen the dates or pick another account.
              </EmptyState>
            </div>
          ) : (
            <div className="charts">
              <ChartCard title="Over time" wide>
                <ResponsiveContainer width="100%" height={260}>
                  <AreaChart
                    data={[...(data.by_day ?? [])]}
                    margin={{ top: 8, right: 16, left: 0, bottom: 0 }}
                  >
                    <CartesianGrid stroke={colors.grid} vertical={false} />
                    <XAxis
                      dataKey="date"
                      tickFormatter={(d: string) => formatDay(d)}
                      stroke={colors.axis}
                      fontSize={12}
                    />
                    <YAxis tickFormatter={formatCompact} stroke={colors.axis} fontSize={12} width={48} />
                    <Tooltip {...tooltipStyle(colors)} labelFormatter={(d) => formatDay(String(d))} />
                    <Legend />
                    <Area
                      isAnimationActive={false}
                      type="monotone"
                      dataKey="impressions"
                      name="Impressions"
                      stroke={colors.series[0]}
                      fill={colors.series[0]}
                      fillOpacity={0.15}
                      strokeWidth={2}
                      dot={{ r: 3 }}
                    />
                    <Area
                      isAnimationActive={false}
                      type="monotone"
                      dataKey="likes"
                      name="Likes"
                      stroke={colors.series[2]}
                      fill={colors.series[2]}
                      fillOpacity={0.12}
                      strokeWidth={2}
                      dot={{ r: 3 }}
                    />
                  </AreaChart>
                </ResponsiveContainer>
              </ChartCard>
              <ChartCard title="By platform">
                <ResponsiveContainer width="100%" height={240}>
                  <BarChart
                    data={(data.by_platform ?? []).map((p) => ({
                      ...p,
                      label: PLATFORM_META[p.platform].label,
                    }))}
                    margin={{ top: 8, right: 16, left: 0, bottom: 0 }}
                  >
                    <CartesianGrid stroke={colors.grid} vertical={false} />
                    <XAxis dataKey="label" stroke={colors.axis} fontSize={12} />
                    <YAxis tickFormatter={formatCompact} stroke={colors.axis} fontSize={12} width={48} />
                    <Tooltip {...tooltipStyle(colors)} />
                    <Legend />
                    <Bar
                      isAnimationActive={false}
                      dataKey="impressions"
                      name="Impressions"
                      fill={colors.series[0]}
                      radius={[4, 4, 0, 0]}
                    />
                    <Bar
                      isAnimationActive={false}
                      dataKey="likes"
                      name="Likes"
                      fill={colors.series[2]}
                      radius={[4, 4, 0, 0]}
                    />
                  </BarChart>
                </ResponsiveContainer>
              </ChartCard>
              <ChartCard title="By account">
                <ResponsiveContainer width="100%" height={240}>
                  <BarChart
                    layout="vertical"
                    data={(data.by_account ?? []).map((a) => ({
                      ...a,
                      label: names.get(a.account_id) ?? a.account_id.slice(0, 8),
                    }))}
                    margin={{ top: 8, right: 16, left: 8, bottom: 0 }}
                  >
                    <CartesianGrid stroke={colors.grid} horizontal={false} />
                    <XAxis type="number" tickFormatter={formatCompact} stroke={colors.axis} fontSize={12} />
                    <YAxis type="category" dataKey="label" stroke={colors.axis} fontSize={12} width={150} />
                    <Tooltip {...tooltipStyle(colors)} />
                    <Bar
                      isAnimationActive={false}
                      dataKey="impressions"
                      name="Impressions"
                      fill={colors.series[1]}
                      radius={[0, 4, 4, 0]}
                    />
                  </BarChart>
                </ResponsiveContainer>
              </ChartCard>
              {data.top_posts && data.top_posts.length > 0 ? (
                <section className="card chart-card chart-card--wide" aria-labelledby="an-top-title">
                  <div className="card__header">
                    <h2 id="an-top-title">Top posts</h2>
                  </div>
                  <table className="table" aria-label="Top posts">
                    <thead>
                      <tr>
                        <th scope="col">Post</th>
                        {METRICS.map((m) => (
                          <th key={m} scope="col">
                            {METRIC_LABEL[m]}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {data.top_posts.map((p, i) => {
                        const platform =
                          typeof p.platform === 'string' && p.platform in PLATFORM_META
                            ? (p.platform as Platform)
                            : null;
                        return (
                          <tr key={`${String(p.delivery_id ?? p.post_id)}-${i}`}>
                            <td>
                              <span className="top-post">
                                {platform ? <PlatformMark platform={platform} /> : null}
                                <a href={hrefOf('analytics', { post: p.post_id })}>
                                  {typeof p.caption === 'string' && p.caption
                                    ? p.caption.slice(0, 60)
                                    : p.post_id.slice(0, 8)}
                                </a>
                              </span>
                            </td>
                            {METRICS.map((m) => (
                              <td key={m} className="tabular">
                                {p[m].toLocaleString()}
                              </td>
                            ))}
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </section>
              ) : null}
            </div>
          )}
        </>
      ) : null}
    </div>
  );
}

const isEmpty = (d: AnalyticsResponse) =>
  (d.by_day ?? []).length === 0 && (d.by_platform ?? []).length === 0 && (d.by_account ?? []).length === 0;

const tooltipStyle = (c: ChartColors) => ({
  contentStyle: { background: c.tooltipBg, border: `1px solid ${c.grid}`, borderRadius: 8, color: c.text },
  cursor: { fill: c.grid, fillOpacity: 0.4 },
});

function Totals({ totals }: { readonly totals: Metrics }) {
  return (
    <dl className="totals" aria-label="Totals">
      {METRICS.map((m) => (
        <div key={m} className="card total">
          <dt>{METRIC_LABEL[m]}</dt>
          <dd className="tabular">{totals[m].toLocaleString()}</dd>
        </div>
      ))}
    </dl>
  );
}

function ChartCard({
  title,
  wide = false,
  children,
}: {
  readonly title: string;
  readonly wide?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <figure className={`card chart-card${wide ? ' chart-card--wide' : ''}`} aria-label={`${title} chart`}>
      <figcaption className="card__header">
        <h2>{title}</h2>
      </figcaption>
      <div className="card__body">{children}</div>
    </figure>
  );
}

function PostFigures({ postId }: { readonly postId: string }) {
  const { post, loadPost } = useAnalyticsStore(useShallow((s) => ({ post: s.post, loadPost: s.loadPost })));
  const colors = useChartColors();
  useEffect(() => void loadPost(postId), [loadPost, postId]);
  const data = post.data;
  const deliveries = data?.deliveries ?? [];
  return (
    <div className="page">
      <PageHeader
        title="Post figures"
        subtitle={<code>{postId}</code>}
        actions={
          <button type="button" className="btn" onClick={() => navigate('analytics')}>
            Back to overview
          </button>
        }
      />
      {data === null && post.loading ? (
        <LoadingState label="Loading figures…" />
      ) : data === null && post.error ? (
        <ErrorState
          error={post.error}
          title="No figures for this post"
          onRetry={() => void loadPost(postId)}
        />
      ) : data ? (
        <>
          <Totals totals={data.totals} />
          {typeof data.post?.caption === 'string' ? (
            <section className="card">
              <div className="card__body">
                <p className="section-title">Caption</p>
                <p>{data.post.caption}</p>
              </div>
            </section>
          ) : null}
          <ChartCard title="Engagement" wide>
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={METRICS.map((m) => ({ metric: METRIC_LABEL[m], value: data.totals[m] }))}>
                <CartesianGrid stroke={colors.grid} vertical={false} />
                <XAxis dataKey="metric" stroke={colors.axis} fontSize={12} />
                <YAxis tickFormatter={formatCompact} stroke={colors.axis} fontSize={12} width={48} />
                <Tooltip {...tooltipStyle(colors)} />
                <Bar
                  isAnimationActive={false}
                  dataKey="value"
                  name="Count"
                  fill={colors.series[0]}
                  radius={[4, 4, 0, 0]}
                />
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
          {deliveries.length > 0 ? (
            <section className="card" aria-labelledby="an-deliveries-title">
              <div className="card__header">
                <h2 id="an-deliveries-title">Per delivery</h2>
              </div>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Platform</th>
                    {METRICS.map((m) => (
                      <th key={m} scope="col">
                        {METRIC_LABEL[m]}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {deliveries.map((d) => (
                    <tr key={d.id}>
                      <td>
                        {typeof d.platform === 'string' && d.platform in PLATFORM_META ? (
                          <PlatformLabel platform={d.platform as Platform} />
                        ) : (
                          <code>{d.id.slice(0, 8)}</code>
                        )}
                      </td>
                      {METRICS.map((m) => (
                        <td key={m} className="tabular">
                          {typeof d[m] === 'number' ? (d[m] as number).toLocaleString() : '—'}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
