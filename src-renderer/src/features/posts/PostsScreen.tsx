import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { hrefOf, useRoute } from '../../app/router';
import { IconRefresh } from '../../components/icons';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { useUnconfirmedWatch } from '../../components/NotConfirmed';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { MAX_POSTS, usePostGroupsStore } from '../../stores/use-post-groups-store';
import { FilterBar, nothingMatches } from './FilterBar';
import { ManyActions, RunResults } from './ManyActions';
import { PostDialog } from './PostDialog';
import { PostTimeline } from './PostTimeline';
import { usePageScroll } from './use-page-scroll';
import './posts.css';

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
  usePageScroll();
  const filtered = filters.status !== 'all' || filters.platform !== 'all' || deferredQuery !== '';

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

  const clearFilters = useCallback(() => {
    setQuery('');
    setFilters({ status: 'all', platform: 'all' });
  }, [setFilters]);
  // While the host still asks the service, an empty index is shown as empty at once (the freshness line says
  // the list is being checked), not as "Loading…" until the next check.
  const settled = groups.data !== null;

  return (
    <div className="page posts-page">
      <div className="posts-page__top">
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
        <FilterBar
          filters={filters}
          query={query}
          matching={rows.length}
          onFilters={setFilters}
          onQuery={setQuery}
          onClear={clearFilters}
          onSelectAll={() => selectAll(order)}
        />
        <Freshness state={groups} what="the posts" onRetry={() => void load({ fresh: true })} />
      </div>
      <ManyActions accounts={accounts.data ?? []} />
      <RunResults groups={groups.data ?? []} />

      <section className="posts-page__list" aria-label="Post list">
        {!settled && groups.loading ? (
          <LoadingState label="Loading posts…" />
        ) : groups.data === null && groups.error ? (
          <ErrorState
            error={groups.error}
            title="Could not load posts"
            onRetry={() => void load({ fresh: true })}
          />
        ) : count === 0 && (groups.data?.length || filtered) ? (
          <EmptyState
            title={nothingMatches(filters, query.trim())}
            action={
              <button type="button" className="btn btn--primary" onClick={clearFilters}>
                Clear filters
              </button>
            }
          >
            {groups.loading
              ? 'Still checking the service for more.'
              : 'Nothing on this list matches every filter.'}
          </EmptyState>
        ) : count === 0 ? (
          <EmptyState
            title="No posts yet"
            action={
              <a className="btn btn--primary" href={hrefOf('compose')}>
                Compose a post
              </a>
            }
          >
            {groups.loading
              ? 'Still checking the service for posts made elsewhere.'
              : 'Posts you create, schedule or import show up here.'}
          </EmptyState>
        ) : (
          <PostTimeline
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
