import { create } from 'zustand';
import type { AnalyticsResponse } from '../../../src-shared/api/analytics';
import type { Platform } from '../../../src-shared/api/common';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

export interface AnalyticsFilters {
  readonly platform: Platform | 'all';
  readonly accountId: string | 'all';
  /** UTC instants; null: no bound. */
  readonly start: string | null;
  readonly end: string | null;
}

interface AnalyticsState {
  readonly filters: AnalyticsFilters;
  readonly overview: Loadable<AnalyticsResponse>;
  readonly postId: string | null;
  readonly post: Loadable<AnalyticsResponse>;
  setFilters(patch: Partial<AnalyticsFilters>): void;
  load(): Promise<void>;
  loadPost(postId: string): Promise<void>;
  closePost(): void;
}

export const useAnalyticsStore = create<AnalyticsState>()((set, get) => {
  let generation = 0;
  return {
    filters: { platform: 'all', accountId: 'all', start: null, end: null },
    overview: idle(),
    postId: null,
    post: idle(),
    setFilters(patch) {
      set({ filters: { ...get().filters, ...patch } });
      void get().load();
    },
    async load() {
      const mine = ++generation;
      const f = get().filters;
      // A range that ends before it starts selects nothing: the screen says so at the fields instead.
      if (f.start !== null && f.end !== null && f.start >= f.end) return;
      set({ overview: loading(get().overview) });
      const r = noteService(
        await settle(() =>
          bridge().analytics.overview({
            platform: f.platform === 'all' ? undefined : f.platform,
            account_id: f.accountId === 'all' ? undefined : f.accountId,
            start_date: f.start ?? undefined,
            end_date: f.end ?? undefined,
            limit: 20,
          }),
        ),
      );
      if (mine !== generation) return;
      set({ overview: settleInto(get().overview, r) });
    },
    async loadPost(postId) {
      set({ postId, post: loading(idle()) });
      const r = noteService(await settle(() => bridge().analytics.post({ post_id: postId })));
      if (get().postId !== postId) return;
      set({ post: settleInto(get().post, r) });
    },
    closePost() {
      set({ postId: null, post: idle() });
    },
  };
});
