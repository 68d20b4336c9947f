import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import type { Delivery, DeliveryStatus } from '../../../../src-shared/api/posts';
import { plainName } from '../../app/bidi';
import { formatDateTime } from '../../app/format';
import { hrefOf, useRoute } from '../../app/router';
import { PLATFORM_META } from '../../app/platforms';
import { LabeledField } from '../../components/Field';
import { PlatformFilter, SelectFilter } from '../../components/Filters';
import { IconRefresh } from '../../components/icons';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { NotConfirmedBadge, useUnconfirmedWatch } from '../../components/NotConfirmed';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { MAX_ROWS, usePostsStore } from '../../stores/use-posts-store';
import { PostDialog } from './PostDialog';
import { ExportButton } from '../export/ExportButton';
import './posts.css';

const STATUSES: readonly { value: DeliveryStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'retry_scheduled', label: 'Retrying' },
  { value: 'posted', label: 'Posted' },
  { value: 'failed', label: 'Failed' },
];

const ROW_HEIGHT = 56;
/** Besides the host's change events, a slow timer catches what happened elsewhere (dashboard, MCP). */
const REFRESH_MS = 30_000;

export function PostsScreen() {
  const { filters, deliveries, total, setFilters, load, listen } = usePostsStore(
    useShallow((s) => ({
      filters: s.filters,
      deliveries: s.deliveries,
      total: s.total,
      setFilters: s.setFilters,
      load: s.load,
      listen: s.listen,
    })),
  );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  const route = useRoute();
  const [openId, setOpenId] = useState<string | null>(() => route.params.get('id'));
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());
  useUnconfirmedWatch();

  useEffect(() => {
    void load({ fresh: true });
    void ensureAccounts();
    const off = listen();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, REFRESH_MS);
    return () => {
      off();
      window.clearInterval(timer);
    };
  }, [load, listen, ensureAccounts]);

  const accountsById = useMemo(
    () => new Map((accounts.data ?? []).map((a) => [a.id, a] as const)),
    [accounts.data],
  );
  const rows = useMemo(() => {
    const all = deliveries.data ?? [];
    if (!deferredQuery) return all;
    return all.filter(
      (d) =>
        d.caption.toLowerCase().includes(deferredQuery) ||
        (accountsById.get(d.social_account_id)?.name.toLowerCase().includes(deferredQuery) ?? false),
    );
  }, [deliveries.data, deferredQuery, accountsById]);

  // Without a search, the list is as long as the index says; rows still on their way show as placeholders.
  const count = deferredQuery ? rows.length : Math.max(rows.length, Math.min(total ?? 0, MAX_ROWS));

  const open = openId ? (deliveries.data ?? []).find((d) => d.id === openId) : undefined;

  return (
    <div className="page page--full">
      <PageHeader
        title="Posts"
        subtitle={
          deliveries.data ? (
            <span aria-live="polite">
              {count.toLocaleString()} {count === 1 ? 'delivery' : 'deliveries'}, one row per account
            </span>
          ) : (
            'Every delivery, one row per account.'
          )
        }
        actions={
          <button
            type="button"
            className="btn"
            onClick={() => void load({ fresh: true })}
            disabled={deliveries.loading}
          >
            <IconRefresh /> Refresh
          </button>
        }
      />
      <ExportButton kind="posts" />
      <div className="toolbar">
        <SelectFilter
          id="posts-status"
          label="Status"
          value={filters.status}
          options={STATUSES}
          onChange={(status) => setFilters({ status })}
        />
        <PlatformFilter
          id="posts-platform"
          value={filters.platform}
          onChange={(platform) => setFilters({ platform })}
        />
        <LabeledField id="posts-search" label="Search" className="posts__search">
          <input
            id="posts-search"
            className="input"
            type="search"
            placeholder="Caption or account"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </LabeledField>
      </div>

      <Freshness state={deliveries} what="the posts" onRetry={() => void load({ fresh: true })} />
      <section className="card posts__card" aria-label="Post list">
        {(deliveries.data === null || count === 0) && deliveries.loading ? (
          <LoadingState label="Loading posts…" />
        ) : deliveries.data === null && deliveries.error ? (
          <ErrorState
            error={deliveries.error}
            title="Could not load posts"
            onRetry={() => void load({ fresh: true })}
          />
        ) : count === 0 ? (
          <EmptyState
            title={deliveries.data?.length ? 'Nothing matches' : 'No posts yet'}
            action={
              deliveries.data?.length ? null : (
                <a className="btn btn--primary" href={hrefOf('compose')}>
                  Compose a post
                </a>
              )
            }
          >
            {deliveries.data?.length
              ? 'Try another status, platform or search.'
              : 'Posts you create, schedule or import show up here.'}
          </EmptyState>
        ) : (
          <PostTable rows={rows} count={count} accounts={accountsById} onOpen={setOpenId} />
        )}
      </section>

      {open ? (
        <PostDialog delivery={open} accounts={accounts.data ?? []} onClose={() => setOpenId(null)} />
      ) : null}
    </div>
  );
}

/** Only the rows in view are in the DOM, so ten thousand scroll like ten. */
function PostTable({
  rows,
  count,
  accounts,
  onOpen,
}: {
  readonly rows: readonly Delivery[];
  /** Rows the list is long (at least `rows.length`); those past the loaded ones are placeholders. */
  readonly count: number;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly onOpen: (id: string) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // We do not use the React Compiler; the virtualizer's functions are read fresh on every render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (i) => rows[i]?.id ?? i,
  });

  return (
    <div className="post-table" role="table" aria-label="Posts" aria-rowcount={count + 1}>
      <div className="post-table__head" role="rowgroup">
        <div className="post-table__row post-table__row--head" role="row" aria-rowindex={1}>
          <span role="columnheader">Account</span>
          <span role="columnheader">Caption</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">When</span>
          <span role="columnheader">
            <span className="visually-hidden">Actions</span>
          </span>
        </div>
      </div>
      <div className="post-table__scroll" ref={scrollRef} data-testid="posts-scroll">
        <div className="post-table__body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const d = rows[v.index];
            if (!d) {
              return (
                <div
                  key={v.key}
                  className="post-table__row post-table__row--pending"
                  role="row"
                  aria-rowindex={v.index + 2}
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  <span role="cell" className="faint">
                    Loading…
                  </span>
                </div>
              );
            }
            return (
              <PostRow
                key={v.key}
                delivery={d}
                account={accounts.get(d.social_account_id)}
                index={v.index}
                start={v.start}
                onOpen={onOpen}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** One row; memoized so that scrolling renders only the rows that come into view. */
const PostRow = memo(function PostRow({
  delivery: d,
  account,
  index,
  start,
  onOpen,
}: {
  readonly delivery: Delivery;
  readonly account: Account | undefined;
  readonly index: number;
  readonly start: number;
  readonly onOpen: (id: string) => void;
}) {
  const when = d.status === 'posted' ? d.published_at : d.scheduled_at;
  return (
    <div
      className="post-table__row"
      role="row"
      aria-rowindex={index + 2}
      style={{ transform: `translateY(${start}px)` }}
      onDoubleClick={() => onOpen(d.id)}
    >
      <span role="cell" className="post-table__account">
        <PlatformMark platform={d.platform} />
        <span className="post-table__ellipsis">{account?.name ?? PLATFORM_META[d.platform].label}</span>
      </span>
      <span role="cell" className="post-table__caption post-table__ellipsis" title={plainName(d.caption)}>
        {d.caption ? plainName(d.caption) : <span className="faint">(no caption)</span>}
      </span>
      <span role="cell">
        <StatusBadge status={d.status} />
        <NotConfirmedBadge id={d.id} status={d.status} />
      </span>
      <span
        role="cell"
        className="post-table__when post-table__ellipsis tabular"
        title={when ? formatDateTime(when) : undefined}
      >
        {when ? formatDateTime(when) : <span className="faint">—</span>}
      </span>
      <span role="cell" className="post-table__actions">
        <button
          type="button"
          className="btn btn--small btn--ghost"
          aria-label={`Edit post: ${d.caption.slice(0, 40) || 'no caption'} (${PLATFORM_META[d.platform].label})`}
          onClick={() => onOpen(d.id)}
        >
          Edit
        </button>
      </span>
    </div>
  );
});
