import { create } from 'zustand';
import type { Platform, Target } from '../../../src-shared/api/common';
import type { CreatePostRequest, Delivery, DeliveryStatus } from '../../../src-shared/api/posts';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import { bridge, idle, RECHECK_MS, settle, type Loadable } from './bridge';
import { applyToDeliveries } from './post-changes';
import { applyHeld, HeardDuringLoad, loadList } from './paged-load';

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
  const heard = new HeardDuringLoad();
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
      const freshness = await loadList<Delivery>({
        list: async (q) => {
          const r = await bridge().posts.list({ ...query, ...q });
          return r.ok ? { ok: true, value: { ...r.value, rows: r.value.posts } } : r;
        },
        fresh: opts?.fresh === true,
        page: PAGE,
        max: MAX_ROWS,
        current: () => mine === generation, // a newer filter's answer wins
        get: () => get().deliveries,
        put: (deliveries, total) => set(total === undefined ? { deliveries } : { deliveries, total }),
        heard,
        apply: (rows, change) => applyToDeliveries(rows, change, keepOf(filters)),
      });
      // The host is still asking the service: ask again soon to learn how that ended.
      if (freshness?.refreshing && rechecks < MAX_RECHECKS) {
        rechecks += 1;
        recheck = setTimeout(() => void get().load({ recheck: true }), RECHECK_MS);
      }
    },
    apply(change) {
      applyHeld(change, {
        heard,
        held: get().deliveries,
        total: get().total,
        apply: (rows, c) => applyToDeliveries(rows, c, keepOf(get().filters)),
        put: (deliveries, total) => set({ deliveries, total }),
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
