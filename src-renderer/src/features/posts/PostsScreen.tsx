import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import type { Delivery, DeliveryStatus } from '../../../../src-shared/api/posts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { plainName } from '../../app/bidi';
import { formatDateTime } from '../../app/format';
import { hrefOf, useRoute } from '../../app/router';
import { PLATFORM_META } from '../../app/platforms';
import { LabeledField } from '../../components/Field';
import { PlatformFilter, SelectFilter } from '../../components/Filters';
import { IconRefresh } from '../../components/icons';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { useUnconfirmedWatch } from '../../components/NotConfirmed';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { MAX_POSTS, usePostGroupsStore } from '../../stores/use-post-groups-store';
import type { PostFilters } from '../../stores/use-posts-store';
import { ManyActions, RunResults } from './ManyActions';
import { PostDialog } from './PostDialog';
import { PostDetail, PostThumb, TargetChip, captionOf, whenOfPost } from './PostGroupParts';
import { ExportButton } from '../export/ExportButton';
import { offersOnPost } from './delivery-actions';
import './posts.css';

const STATUSES: readonly { value: DeliveryStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'retry_scheduled', label: 'Retrying' },
  { value: 'posted', label: 'Posted' },
  { value: 'failed', label: 'Failed' },
];

const ROW_HEIGHT = 64;
/** Besides the host's change events, a slow timer catches what happened elsewhere (dashboard, MCP). */
const REFRESH_MS = 30_000;

export function PostsScreen() {
  const { filters, groups, total, selected, setFilters, load, listen, toggle, selectAll } =
    usePostGroupsStore(
      useShallow((s) => ({
        filters: s.filters,
        groups: s.groups,
        total: s.total,
        selected: s.selected,
        setFilters: s.setFilters,
        load: s.load,
        listen: s.listen,
        toggle: s.toggle,
        selectAll: s.selectAll,
      })),
    );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  const route = useRoute();
  const [openId, setOpenId] = useState<string | null>(() => route.params.get('id'));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());
  useUnconfirmedWatch();

  useEffect(() => {
    // Asks the service now; the host answers from its index at once and refreshes behind it (the list asks again).
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
    const all = groups.data ?? [];
    if (!deferredQuery) return all;
    return all.filter((g) =>
      g.deliveries.some(
        (d) =>
          d.caption.toLowerCase().includes(deferredQuery) ||
          (accountsById.get(d.social_account_id)?.name.toLowerCase().includes(deferredQuery) ?? false),
      ),
    );
  }, [groups.data, deferredQuery, accountsById]);
  const order = useMemo(() => rows.map((g) => g.post_id), [rows]);

  const count = deferredQuery ? rows.length : Math.max(rows.length, Math.min(total ?? 0, MAX_POSTS));
  const deliveries = rows.reduce((n, g) => n + g.deliveries.length, 0);

  const open = useMemo(() => {
    if (!openId) return undefined;
    for (const g of groups.data ?? []) {
      const d = g.deliveries.find((x) => x.id === openId);
      if (d) return d;
    }
    return undefined;
  }, [openId, groups.data]);

  const onToggle = useCallback(
    (postId: string, range: boolean) => toggle(postId, { range, order }),
    [toggle, order],
  );
  const onExpand = useCallback(
    (postId: string) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        if (next.has(postId)) next.delete(postId);
        else next.add(postId);
        return next;
      }),
    [],
  );

  return (
    <div className="page page--full">
      <PageHeader
        title="Posts"
        subtitle={
          groups.data ? (
            <span aria-live="polite" data-testid="posts-count">
              {count.toLocaleString()} {count === 1 ? 'post' : 'posts'}, {deliveries.toLocaleString()}{' '}
              {deliveries === 1 ? 'delivery' : 'deliveries'}
            </span>
          ) : (
            'Every post, with one chip per account it goes to.'
          )
        }
        actions={
          <button
            type="button"
            className="btn"
            onClick={() => void load({ fresh: true })}
            disabled={groups.loading}
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
        {rows.length > 0 ? (
          <button type="button" className="btn btn--small posts__select-all" onClick={() => selectAll(order)}>
            Select all {rows.length.toLocaleString()} matching
          </button>
        ) : null}
      </div>

      <ManyActions accounts={accounts.data ?? []} />
      <RunResults groups={groups.data ?? []} />

      <Freshness state={groups} what="the posts" onRetry={() => void load({ fresh: true })} />
      <section className="card posts__card" aria-label="Post list">
        {(groups.data === null || count === 0) && groups.loading ? (
          <LoadingState label="Loading posts…" />
        ) : groups.data === null && groups.error ? (
          <ErrorState
            error={groups.error}
            title="Could not load posts"
            onRetry={() => void load({ fresh: true })}
          />
        ) : count === 0 ? (
          <EmptyState
            title={groups.data?.length ? 'Nothing matches' : 'No posts yet'}
            action={
              groups.data?.length ? null : (
                <a className="btn btn--primary" href={hrefOf('compose')}>
                  Compose a post
                </a>
              )
            }
          >
            {groups.data?.length
              ? 'Try another status, platform or search.'
              : 'Posts you create, schedule or import show up here.'}
          </EmptyState>
        ) : (
          <GroupTable
            filters={filters}
            rows={rows}
            count={count}
            accounts={accountsById}
            selected={selected}
            expanded={expanded}
            onToggle={onToggle}
            onExpand={onExpand}
            onOpen={setOpenId}
          />
        )}
      </section>

      {open ? (
        <PostDialog delivery={open} accounts={accounts.data ?? []} onClose={() => setOpenId(null)} />
      ) : null}
    </div>
  );
}

/** Only the posts in view are in the DOM; an expanded post measures its own height. */
function GroupTable({
  filters,
  rows,
  count,
  accounts,
  selected,
  expanded,
  onToggle,
  onExpand,
  onOpen,
}: {
  readonly filters: PostFilters;
  readonly rows: readonly PostGroup[];
  readonly count: number;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly selected: ReadonlySet<string>;
  readonly expanded: ReadonlySet<string>;
  readonly onToggle: (postId: string, range: boolean) => void;
  readonly onExpand: (postId: string) => void;
  readonly onOpen: (deliveryId: string) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const g = rows[i];
      return g && expanded.has(g.post_id) ? ROW_HEIGHT + 48 + g.deliveries.length * 44 : ROW_HEIGHT;
    },
    overscan: 10,
    getItemKey: (i) => rows[i]?.post_id ?? i,
  });

  return (
    <div className="post-table" role="table" aria-label="Posts" aria-rowcount={count + 1}>
      <div className="post-table__head" role="rowgroup">
        <div
          className="post-table__row post-table__row--head post-table__row--group"
          role="row"
          aria-rowindex={1}
        >
          <span role="columnheader">
            <span className="visually-hidden">Selected</span>
          </span>
          <span role="columnheader">Post</span>
          <span role="columnheader">Accounts</span>
          <span role="columnheader">When</span>
          <span role="columnheader">
            <span className="visually-hidden">Actions</span>
          </span>
        </div>
      </div>
      <div className="post-table__scroll" ref={scrollRef} data-testid="posts-scroll">
        <div className="post-table__body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const g = rows[v.index];
            if (!g) {
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
            const isOpen = expanded.has(g.post_id);
            return (
              <div
                key={v.key}
                className="post-group"
                data-index={v.index}
                ref={isOpen ? virtualizer.measureElement : undefined}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <GroupRow
                  group={g}
                  filters={filters}
                  accounts={accounts}
                  index={v.index}
                  selected={selected.has(g.post_id)}
                  expanded={isOpen}
                  onToggle={onToggle}
                  onExpand={onExpand}
                  onOpen={onOpen}
                />
                {isOpen ? <PostDetail group={g} accounts={accounts} onOpen={onOpen} /> : null}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** One post; memoized so that scrolling renders only the posts that come into view. */
const GroupRow = memo(function GroupRow({
  group: g,
  filters,
  accounts,
  index,
  selected,
  expanded,
  onToggle,
  onExpand,
  onOpen,
}: {
  readonly group: PostGroup;
  readonly filters: PostFilters;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly index: number;
  readonly selected: boolean;
  readonly expanded: boolean;
  readonly onToggle: (postId: string, range: boolean) => void;
  readonly onExpand: (postId: string) => void;
  readonly onOpen: (deliveryId: string) => void;
}) {
  const caption = captionOf(g);
  const when = whenOfPost(g);
  const first = g.deliveries[0] as Delivery;
  // Edit opens the delivery the filters matched (on X's list, the X delivery), else the first.
  const matched =
    g.deliveries.find(
      (d) =>
        (filters.platform === 'all' || d.platform === filters.platform) &&
        (filters.status === 'all' || d.status === filters.status),
    ) ?? first;
  const media = first.media ?? [];
  const short = caption.slice(0, 40) || 'no caption';
  // A post nothing of which can change any more opens to be read, not edited (the transition table).
  const verb = offersOnPost(g.deliveries, 'edit') ? 'Edit' : 'Open';
  return (
    <div
      className={`post-table__row post-table__row--group${selected ? ' is-selected' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      onDoubleClick={() => onOpen(matched.id)}
    >
      <span role="cell" className="post-table__check">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select post: ${short}`}
          onChange={(e) => onToggle(g.post_id, (e.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </span>
      <span role="cell" className="post-table__post">
        <PostThumb postId={g.post_id} count={media.length} />
        <span className="post-table__caption post-table__ellipsis" title={plainName(caption)}>
          {caption ? plainName(caption) : <span className="faint">(no caption)</span>}
        </span>
      </span>
      <span role="cell" className="post-table__chips">
        {g.deliveries.map((d) => (
          <TargetChip key={d.id} delivery={d} account={accounts.get(d.social_account_id)} />
        ))}
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
          aria-expanded={expanded}
          onClick={() => onExpand(g.post_id)}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {g.deliveries.length}
          <span className="visually-hidden">
            {' '}
            {g.deliveries.length === 1 ? 'delivery' : 'deliveries'}: {short}
          </span>
        </button>
        <button
          type="button"
          className="btn btn--small btn--ghost"
          aria-label={`${verb} post: ${short} (${g.deliveries.map((d) => PLATFORM_META[d.platform].label).join(', ')})`}
          onClick={() => onOpen(matched.id)}
        >
          {verb}
        </button>
      </span>
    </div>
  );
});
