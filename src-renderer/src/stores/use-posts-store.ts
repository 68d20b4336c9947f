import { create } from 'zustand';
import type { Platform, Target } from '../../../src-shared/api/common';
import type { CreatePostRequest, Delivery, DeliveryStatus } from '../../../src-shared/api/posts';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc';
import type { ListFreshness } from '../../../src-shared/ipc';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import { bridge, fromIndex, idle, loading, RECHECK_MS, settle, settleInto, type Loadable } from './bridge';
import { applyToDeliveries } from './post-changes';
import { noteService, useServiceStore } from './use-service-store';

export interface PostFilters {
  readonly status: DeliveryStatus | 'all';
  readonly platform: Platform | 'all';
}

export type PostChange =
  | { readonly kind: 'caption'; readonly caption: string }
  /** `schedule`: the delivery is a draft, so it also moves to `scheduled`. */
  | { readonly kind: 'reschedule'; readonly scheduledAt: string; readonly schedule?: boolean }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'addTargets'; readonly targets: readonly Target[] };

interface PostsState {
  readonly filters: PostFilters;
  /** The rows loaded so far, newest first; pages keep arriving while `deliveries.loading`. */
  readonly deliveries: Loadable<readonly Delivery[]>;
  /** How many deliveries match the filters (the local index's count), or null before the first page. */
  readonly total: number | null;
  setFilters(patch: Partial<PostFilters>): void;
  /** `fresh`: ask the service now (screen opened, Refresh pressed) rather than within the refresh interval. */
  load(opts?: {
    readonly fresh?: boolean;
    /** Asking again while the host's refresh is under way (not counted as a new load). */
    readonly recheck?: boolean;
  }): Promise<void>;
  /** Applies one change of the posts to the rows held, without reading the list again. */
  apply(change: Readonly<PostsChanged>): void;
  listen(): () => void;
  create(
    request: CreatePostRequest,
  ): Promise<BridgeResult<{ readonly postId: string; readonly count: number }>>;
  update(id: string, change: PostChange): Promise<BridgeResult<true>>;
  /** Every delivery of one post, whatever the list's filters: what a change to the post reaches. */
  deliveriesOf(postId: string): Promise<BridgeResult<readonly Delivery[]>>;
  remove(id: string): Promise<BridgeResult<true>>;
}

/** Rows per `posts:list` call: the first page paints at once, the rest follow in the background. */
const PAGE = 500;
/** How many times a load asks again while the host's refresh from the service is still under way. */
const MAX_RECHECKS = 8;
/** The most rows the screen holds. */
export const MAX_ROWS = 10_000;

function fail(error: Readonly<BridgeError>): BridgeResult<never> {
  return { ok: false, error };
}

const keepOf =
  (f: Readonly<PostFilters>) =>
  (d: Readonly<Delivery>): boolean =>
    (f.status === 'all' || d.status === f.status) && (f.platform === 'all' || d.platform === f.platform);

export const usePostsStore = create<PostsState>()((set, get) => {
  // Changes heard while a load is on its way: applied again over what it read, which may predate them.
  let heardDuringLoad: PostsChanged[] | null = null;
  let generation = 0;
  let recheck: ReturnType<typeof setTimeout> | undefined;
  let rechecks = 0;
  return {
    filters: { status: 'all', platform: 'all' },
    deliveries: idle(),
    total: null,
    setFilters(patch) {
      // Other filters, other rows: start empty so the new ones show page by page.
      set({ filters: { ...get().filters, ...patch }, deliveries: idle(), total: null });
      void get().load();
    },
    async load(opts) {
      const mine = ++generation;
      clearTimeout(recheck);
      if (!opts?.recheck) rechecks = 0;
      const { filters } = get();
      const query = {
        status: filters.status === 'all' ? undefined : filters.status,
        platform: filters.platform === 'all' ? undefined : filters.platform,
      };
      // A first load shows each page as it comes; a refresh puts its first page over the old list and
      // swaps in the rest once it has it all, so rows never blink out.
      const progressive = get().deliveries.data === null;
      set({ deliveries: loading(get().deliveries) });
      heardDuringLoad = [];
      const rows: Delivery[] = [];
      let total = 0;
      let freshness: ListFreshness | undefined;
      for (let offset = 0; offset < MAX_ROWS; offset += PAGE) {
        const r = await settle(() =>
          bridge().posts.list({
            ...query,
            offset,
            limit: PAGE,
            ...(offset === 0 && opts?.fresh ? { refresh: true } : {}),
          }),
        );
        if (mine !== generation) return; // a newer filter's answer wins
        if (!r.ok) {
          noteService(r);
          set({ deliveries: settleInto(get().deliveries, r) });
          return;
        }
        rows.push(...r.value.posts);
        total = r.value.total;
        if (offset === 0) freshness = r.value.freshness;
        const done = r.value.posts.length < PAGE || rows.length >= Math.min(total, MAX_ROWS);
        if (done) break;
        if (progressive || offset === 0) {
          const prev = get().deliveries.data;
          // On a refresh the first page replaces the top of the list; the old rest stays until the new one arrives.
          const shown = progressive || !prev ? [...rows] : [...rows, ...prev.slice(rows.length)];
          set({ deliveries: { ...get().deliveries, data: shown, loading: true }, total });
        }
      }
      let shown: readonly Delivery[] = rows;
      for (const change of heardDuringLoad ?? []) {
        const r = applyToDeliveries(shown, change, keepOf(filters));
        shown = r.rows;
        total += r.delta;
      }
      heardDuringLoad = null;
      set({ deliveries: fromIndex([...shown], freshness), total });
      if (!freshness?.refreshing) useServiceStore.getState().report(freshness?.error ?? null);
      // The host is still asking the service: ask again soon to learn how that ended.
      if (freshness?.refreshing && rechecks < MAX_RECHECKS) {
        rechecks += 1;
        recheck = setTimeout(() => void get().load({ recheck: true }), RECHECK_MS);
      }
    },
    apply(change) {
      heardDuringLoad?.push(change);
      const held = get().deliveries.data;
      if (!held) return;
      const r = applyToDeliveries(held, change, keepOf(get().filters));
      if (!r.touched) return;
      const total = get().total;
      set({
        deliveries: { ...get().deliveries, data: r.rows },
        total: total === null ? null : Math.max(0, total + r.delta),
      });
    },
    listen() {
      return bridge().posts.onDidChange((change) => get().apply(change));
    },
    async create(request) {
      const r = await settle(() => bridge().posts.create(request));
      if (!r.ok) return fail(r.error);
      return { ok: true, value: { postId: r.value.post.id, count: r.value.social_posts.length } };
    },
    async update(id, change) {
      const input =
        change.kind === 'caption'
          ? { id, caption: change.caption }
          : change.kind === 'reschedule'
            ? {
                id,
                scheduled_at: change.scheduledAt,
                ...(change.schedule ? { status: 'scheduled' as const } : {}),
              }
            : change.kind === 'cancel'
              ? { id, status: 'draft' as const }
              : { id, add_targets: [...change.targets] };
      const r = await settle(() => bridge().posts.update(input));
      if (!r.ok) return fail(r.error);
      return { ok: true, value: true };
    },
    async deliveriesOf(postId) {
      const r = await settle(() => bridge().posts.list({ post_id: postId, limit: 1000 }));
      return r.ok ? { ok: true, value: r.value.posts } : r;
    },
    async remove(id) {
      const r = await settle(() => bridge().posts.delete({ id }));
      if (!r.ok) return fail(r.error);
      return { ok: true, value: true };
    },
  };
});
