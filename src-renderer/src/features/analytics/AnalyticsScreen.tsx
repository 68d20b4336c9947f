import { useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
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
import { pick } from '../../stores/pick';
import type { AnalyticsResponse, Metrics } from '../../../../src-shared/api/analytics';
import type { Platform } from '../../../../src-shared/api/common';
import { plainName } from '../../app/bidi';
import { formatCompact, formatDay } from '../../app/format';
import { hrefOf, navigate, useRoute } from '../../app/router';
import { PLATFORM_META } from '../../app/platforms';
import { TextField } from '../../components/Field';
import { PlatformFilter, SelectFilter } from '../../components/Filters';
import { IconChart } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { PlatformLabel, PlatformMark } from '../../components/PlatformMark';
import { EmptyState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAnalyticsStore } from '../../stores/use-analytics-store';
import { useChartColors, type ChartColors } from './use-chart-colors';
import { changeFrom, engagementRate, fillDays, niceTicks } from './series';
import { ExportButton } from '../export/ExportButton';
import './analytics.css';
import { LoadGate } from '../../components/LoadGate';
import { DataTable } from '../../components/DataTable';

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

/** A date input for one end of the range: the day's start, or (`end`) the next day's start. */
function DayFilter({
  id,
  label,
  end,
  value,
  error,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly end: boolean;
  readonly value: string | null;
  /** Why this end of the range cannot be used (From after To), shown at the field. */
  readonly error?: string | null;
  readonly onChange: (iso: string | null) => void;
}) {
  return (
    <TextField
      id={id}
      label={label}
      hint={error ? <span className="field__error">{error}</span> : undefined}
      type="date"
      value={toDateInput(value, end)}
      aria-invalid={Boolean(error)}
      aria-describedby={error ? `${id}-hint` : undefined}
      onValue={(v) => onChange(dayBound(v, end))}
    />
  );
}

export function AnalyticsScreen() {
  const route = useRoute();
  const postId = route.params.get('post');
  return postId ? <PostFigures postId={postId} /> : <Overview />;
}

function Overview() {
  const { filters, overview, previous, setFilters, load } = useAnalyticsStore(
    useShallow((s) => pick(s, 'filters', 'overview', 'previous', 'setFilters', 'load')),
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
  // The accounts of the chosen platform only: an account of another one would select nothing.
  const accountOptions = useMemo(
    () => [
      { value: 'all', label: 'All accounts' },
      ...(accounts.data ?? [])
        .filter((a) => filters.platform === 'all' || a.platform === filters.platform)
        .map((a) => ({
          value: a.id,
          label: `${PLATFORM_META[a.platform].label} · ${a.name}`,
        })),
    ],
    [accounts.data, filters.platform],
  );
  const backwards = filters.start !== null && filters.end !== null && filters.start >= filters.end;
  const presetOf = (days: number | null): boolean => {
    if (days === null) return filters.start === null && filters.end === null;
    if (!filters.start || !filters.end) return false;
    const span = Math.round((Date.parse(filters.end) - Date.parse(filters.start)) / 86_400_000);
    const tomorrow = new Date();
    tomorrow.setHours(0, 0, 0, 0);
    tomorrow.setDate(tomorrow.getDate() + 1);
    return span === days && Date.parse(filters.end) === tomorrow.getTime();
  };
  const data = overview.data;
  const days = useMemo(
    () => fillDays(data?.by_day ?? [], { start: filters.start, end: filters.end }),
    [data, filters.start, filters.end],
  );
  const spanDays =
    filters.start && filters.end
      ? Math.round((Date.parse(filters.end) - Date.parse(filters.start)) / 86_400_000)
      : null;
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
      <ExportButton kind="analytics" />
      <div className="toolbar">
        <PlatformFilter
          id="an-platform"
          value={filters.platform}
          onChange={(platform) => {
            const chosen = (accounts.data ?? []).find((a) => a.id === filters.accountId);
            const keep = platform === 'all' || !chosen || chosen.platform === platform;
            setFilters(keep ? { platform } : { platform, accountId: 'all' });
          }}
        />
        <SelectFilter
          id="an-account"
          label="Account"
          value={filters.accountId}
          options={accountOptions}
          onChange={(accountId) => setFilters({ accountId })}
        />
        <DayFilter
          id="an-from"
          label="From"
          end={false}
          value={filters.start}
          error={backwards ? 'From is after To: pick an earlier day.' : null}
          onChange={(start) => setFilters({ start })}
        />
        <DayFilter
          id="an-to"
          label="To"
          end
          value={filters.end}
          error={backwards ? 'To is before From: pick a later day.' : null}
          onChange={(end) => setFilters({ end })}
        />
        <div className="btn-row" role="group" aria-label="Date presets">
          {([7, 30, null] as const).map((days) => (
            <button
              key={days ?? 'all'}
              type="button"
              className="btn btn--small"
              aria-pressed={presetOf(days)}
              onClick={() => (days === null ? setFilters({ start: null, end: null }) : preset(days))}
            >
              {days === null ? 'All time' : `${days} days`}
            </button>
          ))}
        </div>
      </div>

      <LoadGate state={overview} what="analytics" onRetry={load} freshness>
        {data ? (
          <>
            <Totals
              totals={data.totals}
              previous={previous.data?.totals ?? null}
              previousLabel={
                spanDays === null ? null : `the previous ${spanDays === 1 ? 'day' : `${spanDays} days`}`
              }
            />
            {isEmpty(data) ? (
              <div className="card">
                <EmptyState title="No figures for this selection" icon={<IconChart size={20} />}>
                  Published posts collect impressions and engagement; widen the dates or pick another account.
                </EmptyState>
              </div>
            ) : (
              <div className="charts">
                <ChartCard title="Over time" wide height={260}>
                  {/* Likes are a few per hundred impressions: on one axis they would lie flat along zero, so
                    each has its own, impressions on the left and likes on the right. */}
                  <AreaChart data={days} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
                    <CartesianGrid stroke={colors.grid} vertical={false} />
                    <XAxis
                      dataKey="date"
                      tickFormatter={formatDay}
                      stroke={colors.axis}
                      fontSize={12}
                      minTickGap={24}
                    />
                    {countAxis(colors, 'impressions', 'left', maxOf(days, 'impressions'))}
                    {countAxis(colors, 'likes', 'right', maxOf(days, 'likes'))}
                    <Tooltip
                      {...tooltipStyle(colors)}
                      labelFormatter={(d: unknown) => formatDay(String(d))}
                    />
                    <Legend />
                    <Area
                      {...AREA}
                      yAxisId="impressions"
                      dataKey="impressions"
                      name="Impressions (left axis)"
                      {...areaColor(colors.series[0], 0.15)}
                    />
                    <Area
                      {...AREA}
                      yAxisId="likes"
                      dataKey="likes"
                      name="Likes (right axis)"
                      {...areaColor(colors.series[2], 0.12)}
                    />
                  </AreaChart>
                </ChartCard>
                <ChartCard title="By platform" height={240}>
                  <BarChart
                    data={(data.by_platform ?? []).map((p) => ({
                      ...p,
                      label: PLATFORM_META[p.platform].label,
                    }))}
                    margin={{ top: 8, right: 16, left: 0, bottom: 0 }}
                  >
                    {columnFrame(colors, 'label')}
                    <Legend />
                    <Bar {...COLUMN} dataKey="impressions" name="Impressions" fill={colors.series[0]} />
                    <Bar {...COLUMN} dataKey="likes" name="Likes" fill={colors.series[2]} />
                  </BarChart>
                </ChartCard>
                <ChartCard title="By account" height={240}>
                  <BarChart
                    layout="vertical"
                    data={(data.by_account ?? []).map((a) => ({
                      ...a,
                      label: names.get(a.account_id) ?? 'An account no longer connected',
                    }))}
                    margin={{ top: 8, right: 16, left: 8, bottom: 0 }}
                  >
                    <CartesianGrid stroke={colors.grid} horizontal={false} />
                    <XAxis
                      type="number"
                      tickFormatter={formatCompact}
                      stroke={colors.axis}
                      fontSize={12}
                      ticks={niceTicks(maxOf(data.by_account ?? [], 'impressions'))}
                      domain={[0, 'dataMax']}
                      allowDecimals={false}
                    />
                    <YAxis type="category" dataKey="label" stroke={colors.axis} fontSize={12} width={150} />
                    <Tooltip {...tooltipStyle(colors)} />
                    <Legend />
                    <Bar {...ROW} dataKey="impressions" name="Impressions" fill={colors.series[0]} />
                  </BarChart>
                </ChartCard>
                {data.top_posts && data.top_posts.length > 0 ? (
                  <MetricsTable
                    className="card chart-card chart-card--wide"
                    titleId="an-top-title"
                    title="Top posts"
                    tableLabel="Top posts"
                    firstColumn="Post"
                  >
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
                                  ? plainName(p.caption.slice(0, 60))
                                  : '(no caption)'}
                              </a>
                            </span>
                          </td>
                          <MetricCells value={(m) => p[m]} />
                        </tr>
                      );
                    })}
                  </MetricsTable>
                ) : null}
              </div>
            )}
          </>
        ) : null}
      </LoadGate>
    </div>
  );
}

const isEmpty = (d: AnalyticsResponse) =>
  (d.by_day ?? []).length === 0 && (d.by_platform ?? []).length === 0 && (d.by_account ?? []).length === 0;

const maxOf = (rows: readonly Readonly<Metrics>[], key: (typeof METRICS)[number]): number =>
  rows.reduce((m, r) => Math.max(m, r[key]), 0);

/** A count axis from zero with round ticks (0, 1K, 2K), on one side of a chart with two. */
function countAxis(colors: ChartColors, id: string, side: 'left' | 'right', max: number) {
  const ticks = niceTicks(max);
  return (
    <YAxis
      yAxisId={id}
      orientation={side}
      ticks={ticks}
      domain={[0, ticks.at(-1) ?? 'dataMax']}
      allowDecimals={false}
      tickFormatter={formatCompact}
      stroke={colors.axis}
      fontSize={12}
      width={48}
    />
  );
}

const tooltipStyle = (c: ChartColors) => ({
  contentStyle: { background: c.tooltipBg, border: `1px solid ${c.grid}`, borderRadius: 8, color: c.text },
  cursor: { fill: c.grid, fillOpacity: 0.4 },
});

const COLUMN = { isAnimationActive: false, radius: [4, 4, 0, 0] as [number, number, number, number] };
const ROW = { isAnimationActive: false, radius: [0, 4, 4, 0] as [number, number, number, number] };
const AREA = { isAnimationActive: false, type: 'monotone', strokeWidth: 2, dot: { r: 3 } } as const;
const areaColor = (color: string | undefined, fillOpacity: number) => ({
  stroke: color,
  fill: color,
  fillOpacity,
});

/**
 * Grid, axes and tooltip of a chart whose categories stand along x (named by `xKey`, written by
 * `formatX`) and whose counts rise up y. A fragment, not a component: the chart reads its children.
 */
function columnFrame(colors: ChartColors, xKey: string, formatX?: (value: string) => string) {
  return (
    <>
      <CartesianGrid stroke={colors.grid} vertical={false} />
      <XAxis
        dataKey={xKey}
        {...(formatX ? { tickFormatter: (d: string) => formatX(d) } : {})}
        stroke={colors.axis}
        fontSize={12}
      />
      <YAxis
        tickFormatter={formatCompact}
        allowDecimals={false}
        stroke={colors.axis}
        fontSize={12}
        width={48}
      />
      <Tooltip
        {...tooltipStyle(colors)}
        {...(formatX ? { labelFormatter: (d: unknown) => formatX(String(d)) } : {})}
      />
    </>
  );
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** "12% more than the previous 7 days", or nothing when there is no earlier figure to compare with. */
function Change({ now, before, label }: { now: number; before: number | null; label: string | null }) {
  const change = label === null ? null : changeFrom(now, before);
  if (change === null) return null;
  const word = change > 0 ? 'more' : change < 0 ? 'fewer' : 'the same as';
  const tone = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  return (
    <dd className={`total__change total__change--${tone}`}>
      {change === 0 ? `The same as ${label}` : `${percent.format(Math.abs(change))} ${word} than ${label}`}
    </dd>
  );
}

function Totals({
  totals,
  previous = null,
  previousLabel = null,
}: {
  readonly totals: Metrics;
  readonly previous?: Metrics | null;
  readonly previousLabel?: string | null;
}) {
  const rate = engagementRate(totals);
  const rateBefore = previous ? engagementRate(previous) : null;
  return (
    <dl className="figures totals" aria-label="Totals">
      {METRICS.map((m) => (
        <div key={m} className="card total">
          <dt>{METRIC_LABEL[m]}</dt>
          <dd className="tabular">{totals[m].toLocaleString()}</dd>
          <Change now={totals[m]} before={previous?.[m] ?? null} label={previousLabel} />
        </div>
      ))}
      <div className="card total">
        <dt>Engagement rate</dt>
        <dd className="tabular">{rate === null ? '—' : percent.format(rate)}</dd>
        {rate !== null && rateBefore !== null && previousLabel ? (
          <dd className="total__change">
            {percent.format(rateBefore)} in {previousLabel}
          </dd>
        ) : (
          <dd className="total__change">likes, comments and shares per impression</dd>
        )}
      </div>
    </dl>
  );
}

/** A titled card holding a table whose columns are a first one, then each metric. */
function MetricsTable({
  className,
  titleId,
  title,
  tableLabel,
  firstColumn,
  children,
}: {
  readonly className: string;
  readonly titleId: string;
  readonly title: string;
  readonly tableLabel?: string;
  readonly firstColumn: string;
  readonly children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId}>{title}</h2>
      </div>
      <DataTable label={tableLabel} columns={[firstColumn, ...METRICS.map((m) => METRIC_LABEL[m])]}>
        {children}
      </DataTable>
    </section>
  );
}

/** A row's metric cells, in column order; a metric with no figure shows a dash. */
function MetricCells({ value }: { readonly value: (m: (typeof METRICS)[number]) => number | null }) {
  return METRICS.map((m) => {
    const v = value(m);
    return (
      <td key={m} className="tabular">
        {v === null ? '—' : v.toLocaleString()}
      </td>
    );
  });
}

function ChartCard({
  title,
  wide = false,
  height,
  children,
}: {
  readonly title: string;
  readonly wide?: boolean;
  readonly height: number;
  readonly children: ReactElement;
}) {
  return (
    <figure className={`card chart-card${wide ? ' chart-card--wide' : ''}`} aria-label={`${title} chart`}>
      <figcaption className="card__header">
        <h2>{title}</h2>
      </figcaption>
      <div className="card__body">
        <ResponsiveContainer width="100%" height={height}>
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function PostFigures({ postId }: { readonly postId: string }) {
  const { post, loadPost } = useAnalyticsStore(useShallow((s) => pick(s, 'post', 'loadPost')));
  const colors = useChartColors();
  useEffect(() => void loadPost(postId), [loadPost, postId]);
  const data = post.data;
  const deliveries = data?.deliveries ?? [];
  return (
    <div className="page">
      <PageHeader
        title="Post figures"
        subtitle={
          typeof data?.post?.caption === 'string' && data.post.caption
            ? `“${plainName(data.post.caption.slice(0, 80))}${data.post.caption.length > 80 ? '…' : ''}”`
            : 'Impressions and engagement of one post, per delivery.'
        }
        actions={
          <button type="button" className="btn" onClick={() => navigate('analytics')}>
            Back to overview
          </button>
        }
      />
      <LoadGate state={post} what="this post’s figures" onRetry={() => loadPost(postId)} freshness>
        {data ? (
          <>
            <Totals totals={data.totals} />
            {typeof data.post?.caption === 'string' ? (
              <section className="card">
                <div className="card__body">
                  <p className="section-title">Caption</p>
                  <p>{plainName(data.post.caption)}</p>
                </div>
              </section>
            ) : null}
            <ChartCard title="Engagement" wide height={220}>
              <BarChart data={METRICS.map((m) => ({ metric: METRIC_LABEL[m], value: data.totals[m] }))}>
                {columnFrame(colors, 'metric')}
                <Legend />
                <Bar {...COLUMN} dataKey="value" name="Count" fill={colors.series[0]} />
              </BarChart>
            </ChartCard>
            {deliveries.length > 0 ? (
              <MetricsTable
                className="card"
                titleId="an-deliveries-title"
                title="Per delivery"
                firstColumn="Platform"
              >
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>
                      {typeof d.platform === 'string' && d.platform in PLATFORM_META ? (
                        <PlatformLabel platform={d.platform as Platform} />
                      ) : (
                        <span className="faint">A delivery</span>
                      )}
                    </td>
                    <MetricCells value={(m) => (typeof d[m] === 'number' ? (d[m] as number) : null)} />
                  </tr>
                ))}
              </MetricsTable>
            ) : null}
          </>
        ) : null}
      </LoadGate>
    </div>
  );
}
