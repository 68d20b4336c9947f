import { create } from 'zustand';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc';
import type {
  ChangeManyResult,
  ChangeOutcome,
  ManyChange,
  PostGroup,
  PostGroupsQuery,
  RetryOutcome,
  RetryWhen,
  Thumbnail,
} from '../../../src-shared/ipc/post-groups';
import type { Delivery } from '../../../src-shared/api/posts';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import { bridge, fromIndex, idle, loading, RECHECK_MS, settle, settleInto, type Loadable } from './bridge';
import { applyToGroups } from './post-changes';
import { applyHeld, HeardDuringLoad, loadList } from './paged-load';
import type { PostFilters } from './use-posts-store';
import { useServiceStore } from './use-service-store';

/** The last change made to many posts: what the results panel shows, and what "Retry failed" sends again. */
export interface ChangeRun {
  readonly change: ManyChange;
  readonly outcomes: readonly ChangeOutcome[];
  /** Bulk update requests sent (each up to 100 posts). */
  readonly requests: number;
}

interface PostGroupsState {
  readonly filters: PostFilters;
  /** Posts loaded so far, newest first; pages keep arriving while `groups.loading`. */
  readonly groups: Loadable<readonly PostGroup[]>;
  readonly total: number | null;
  /** Selected post ids, and the one a shift-click extends from. */
  readonly selected: ReadonlySet<string>;
  readonly anchor: string | null;
  readonly busy: boolean;
  readonly run: ChangeRun | null;
  /** Thumbnails asked for so far, by post id (`loading` while on the way). */
  readonly thumbs: ReadonlyMap<string, Thumbnail | 'loading'>;
  /** Asks main once for the post's thumbnail (the rows in view ask as they appear). */
  thumbnail(postId: string): void;
  /** Drafts never scheduled: the calendar's side list, to drag onto a day. */
  readonly drafts: Loadable<readonly PostGroup[]>;
  /** `fresh`: ask the service now (the calendar opened, Refresh pressed). */
  loadDrafts(opts?: { readonly fresh?: boolean; readonly rechecks?: number }): Promise<void>;
  /** Applies each change of the posts to the drafts; returns the unsubscribe. */
  listenDrafts(): () => void;
  setFilters(patch: Partial<PostFilters>): void;
  load(opts?: { readonly fresh?: boolean; readonly recheck?: boolean }): Promise<void>;
  /** Applies each change of the posts (`posts:didChange`) to the rows held, without reading the list again. */
  apply(change: Readonly<PostsChanged>): void;
  listen(): () => void;
  /** Click toggles one; shift-click selects the range from the anchor in `order` (the list as shown). */
  toggle(postId: string, opts: { readonly range: boolean; readonly order: readonly string[] }): void;
  selectAll(ids: readonly string[]): void;
  clearSelection(): void;
  changeSelected(change: ManyChange): Promise<BridgeResult<ChangeRun>>;
  /** Sends only the failed ones of the last run again. */
  retryFailed(): Promise<BridgeResult<ChangeRun>>;
  dismissRun(): void;
  duplicate(postId: string): Promise<BridgeResult<string>>;
  publishNow(postId: string): Promise<BridgeResult<{ readonly notRemoved: number }>>;
  /** Makes failed deliveries of a post again (these, or every failed one), each exactly once. */
  retryDeliveries(
    postId: string,
    deliveryIds: readonly string[] | null,
    when: RetryWhen,
  ): Promise<BridgeResult<readonly RetryOutcome[]>>;
}

const PAGE = 500;
/** The first page is what paints: a screenful and some, so 3,400 posts open as fast as a handful. */
const FIRST_PAGE = 30;
/** The calendar's side list shows this many drafts (newest first). */
const DRAFTS_SHOWN = 100;
const MAX_RECHECKS = 8;
export const MAX_POSTS = 10_000;

const fail = (error: Readonly<BridgeError>): BridgeResult<never> => ({ ok: false, error });

/** Whether a delivery makes its post one the list shows under these filters (the host's query, in the page). */
export const matchesFilters =
  (f: Readonly<PostFilters>) =>
  (d: Readonly<Delivery>): boolean =>
    (f.status === 'all' || d.status === f.status) && (f.platform === 'all' || d.platform === f.platform);

/** The calendar's side list: drafts never given a time. */
const isUnscheduledDraft = (d: Readonly<Delivery>): boolean =>
  d.status === 'draft' && !d.scheduled_at && !d.published_at;

/** A later run over earlier outcomes: the retried posts take their new result, the others keep theirs. */
function merge(prev: readonly ChangeOutcome[], next: readonly ChangeOutcome[]): ChangeOutcome[] {
  const byId = new Map(next.map((o) => [o.post_id, o]));
  return prev.map((o) => byId.get(o.post_id) ?? o);
}

export const usePostGroupsStore = create<PostGroupsState>()((set, get) => {
  let generation = 0;
  let recheck: ReturnType<typeof setTimeout> | undefined;
  let rechecks = 0;
  let draftsRecheck: ReturnType<typeof setTimeout> | undefined;
  const heard = new HeardDuringLoad();

  /**
   * The host answered from its index while it asks the service: what that brings arrives as changes, so only how
   * the refresh ended is asked again (one row), never the whole list.
   */
  const recheckFreshness = (mine: number, query: PostGroupsQuery): void => {
    if (rechecks >= MAX_RECHECKS) return;
    rechecks += 1;
    recheck = setTimeout(() => {
      void settle(() => bridge().postGroups.list({ ...query, limit: 1 })).then((r) => {
        if (mine !== generation || !r.ok) return;
        const f = r.value.freshness;
        set({ groups: fromIndex(get().groups.data ?? [], f), total: r.value.total });
        if (!f?.refreshing) useServiceStore.getState().report(f?.error ?? null);
        else recheckFreshness(mine, query);
      });
    }, RECHECK_MS);
  };

  const finish = (r: BridgeResult<ChangeManyResult>, change: ManyChange, prev: ChangeRun | null) => {
    set({ busy: false });
    if (!r.ok) return fail(r.error);
    const run: ChangeRun = prev
      ? {
          change,
          outcomes: merge(prev.outcomes, r.value.outcomes),
          requests: prev.requests + r.value.requests,
        }
      : { change, outcomes: r.value.outcomes, requests: r.value.requests };
    // What changed is no longer selected; what failed stays selected, to be retried or changed another way.
    const failedIds = new Set(run.outcomes.filter((o) => !o.ok).map((o) => o.post_id));
    // The rows themselves follow `posts:didChange`, one change at a time.
    set({ run, selected: failedIds });
    return { ok: true as const, value: run };
  };

  return {
    filters: { status: 'all', platform: 'all' },
    groups: idle(),
    total: null,
    selected: new Set(),
    anchor: null,
    busy: false,
    run: null,
    thumbs: new Map(),
    thumbnail(postId) {
      if (get().thumbs.has(postId)) return;
      set({ thumbs: new Map(get().thumbs).set(postId, 'loading') });
      void settle(() => bridge().postGroups.thumbnail({ post_id: postId })).then((r) => {
        const none: Thumbnail = { data_url: null, kind: 'none', count: 0 };
        set({ thumbs: new Map(get().thumbs).set(postId, r.ok ? r.value : none) });
      });
    },
    drafts: idle(),
    async loadDrafts(opts) {
      clearTimeout(draftsRecheck);
      set({ drafts: loading(get().drafts) });
      const r = await settle(() =>
        bridge().postGroups.list({
          status: 'draft',
          unscheduled: true,
          limit: DRAFTS_SHOWN,
          ...(opts?.fresh ? { refresh: true } : {}),
        }),
      );
      set({ drafts: settleInto(get().drafts, r.ok ? { ok: true, value: r.value.groups } : r) });
      // The host answered from its index while asking the service: ask again to see what that brought.
      const left = opts?.rechecks ?? MAX_RECHECKS;
      if (r.ok && r.value.freshness?.refreshing && left > 0) {
        draftsRecheck = setTimeout(() => void get().loadDrafts({ rechecks: left - 1 }), RECHECK_MS);
      }
    },
    listenDrafts() {
      return bridge().posts.onDidChange((change) => {
        const drafts = get().drafts.data;
        if (!drafts) return;
        const r = applyToGroups(drafts, change, isUnscheduledDraft);
        if (r.touched) set({ drafts: { ...get().drafts, data: r.rows.slice(0, DRAFTS_SHOWN) } });
      });
    },
    setFilters(patch) {
      set({ filters: { ...get().filters, ...patch }, groups: idle(), total: null, selected: new Set() });
      void get().load();
    },
    async load(opts) {
      const mine = ++generation;
      clearTimeout(recheck);
      if (!opts?.recheck) rechecks = 0;
      const { filters } = get();
      const query: PostGroupsQuery = {
        ...(filters.status === 'all' ? {} : { status: filters.status }),
        ...(filters.platform === 'all' ? {} : { platform: filters.platform }),
      };
      const freshness = await loadList<PostGroup>({
        list: async (q) => {
          const r = await bridge().postGroups.list({ ...query, ...q });
          return r.ok ? { ok: true, value: { ...r.value, rows: r.value.groups } } : r;
        },
        fresh: opts?.fresh === true,
        page: PAGE,
        firstPage: FIRST_PAGE,
        max: MAX_POSTS,
        current: () => mine === generation,
        get: () => get().groups,
        put: (groups, total) => set(total === undefined ? { groups } : { groups, total }),
        heard,
        apply: (rows, change) => applyToGroups(rows, change, matchesFilters(filters)),
      });
      if (freshness?.refreshing) recheckFreshness(mine, query);
    },
    apply(change) {
      applyHeld(change, {
        heard,
        held: get().groups,
        total: get().total,
        apply: (rows, c) => applyToGroups(rows, c, matchesFilters(get().filters)),
        put: (groups, total) => set({ groups, total }),
      });
    },
    listen() {
      return bridge().posts.onDidChange((change) => get().apply(change));
    },
    toggle(postId, { range, order }) {
      const selected = new Set(get().selected);
      const anchor = get().anchor;
      if (range && anchor && anchor !== postId) {
        const a = order.indexOf(anchor);
        const b = order.indexOf(postId);
        if (a >= 0 && b >= 0) {
          for (const id of order.slice(Math.min(a, b), Math.max(a, b) + 1)) selected.add(id);
          set({ selected });
          return;
        }
      }
      if (selected.has(postId)) selected.delete(postId);
      else selected.add(postId);
      set({ selected, anchor: postId });
    },
    selectAll(ids) {
      set({ selected: new Set(ids) });
    },
    clearSelection() {
      set({ selected: new Set(), anchor: null });
    },
    async changeSelected(change) {
      const post_ids = [...get().selected];
      if (post_ids.length === 0 || get().busy)
        return fail({ kind: 'invalid_input', message: 'Select posts first.' });
      set({ busy: true, run: null });
      const r = await settle(() => bridge().postGroups.changeMany({ post_ids, change }));
      return finish(r, change, null);
    },
    async retryFailed() {
      const prev = get().run;
      const bad = prev?.outcomes.filter((o) => !o.ok) ?? [];
      if (!prev || bad.length === 0 || get().busy)
        return fail({ kind: 'invalid_input', message: 'Nothing failed.' });
      set({ busy: true });
      const updates = bad.flatMap((o) => (o.update ? [o.update] : []));
      // Bulk-updated posts go again exactly as first sent; one-by-one changes (cancel, delete) are asked again.
      const r =
        updates.length === bad.length
          ? await settle(() => bridge().postGroups.retry({ updates }))
          : await settle(() =>
              bridge().postGroups.changeMany({ post_ids: bad.map((o) => o.post_id), change: prev.change }),
            );
      return finish(r, prev.change, prev);
    },
    dismissRun() {
      set({ run: null });
    },
    async duplicate(postId) {
      const r = await settle(() => bridge().postGroups.duplicate({ post_id: postId }));
      if (!r.ok) return fail(r.error);
      return { ok: true, value: r.value.post_id };
    },
    async publishNow(postId) {
      const r = await settle(() => bridge().postGroups.publishNow({ post_id: postId }));
      if (!r.ok) return fail(r.error);
      return { ok: true, value: { notRemoved: r.value.not_removed.length } };
    },
    async retryDeliveries(postId, deliveryIds, when) {
      const r = await settle(() =>
        bridge().postGroups.retryDeliveries({
          post_id: postId,
          ...(deliveryIds ? { delivery_ids: [...deliveryIds] } : {}),
          when,
        }),
      );
      // The rows follow the changes themselves: the new delivery appears, the failed one leaves.
      return r.ok ? { ok: true, value: r.value.results } : fail(r.error);
    },
  };
});
