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
  /** The period of the same length just before a closed range, for "vs the previous 7 days"; idle otherwise. */
  readonly previous: Loadable<AnalyticsResponse>;
  readonly postId: string | null;
  readonly post: Loadable<AnalyticsResponse>;
  setFilters(patch: Partial<AnalyticsFilters>): void;
  load(): Promise<void>;
  loadPost(postId: string): Promise<void>;
  closePost(): void;
}

/** The period of the same length just before `start`–`end`, or null for an open range. */
function previousPeriod(
  start: string | null,
  end: string | null,
): { readonly start: string; readonly end: string } | null {
  if (!start || !end) return null;
  const span = Date.parse(end) - Date.parse(start);
  if (!(span > 0)) return null;
  return { start: new Date(Date.parse(start) - span).toISOString(), end: start };
}

export const useAnalyticsStore = create<AnalyticsState>()((set, get) => {
  let generation = 0;
  return {
    filters: { platform: 'all', accountId: 'all', start: null, end: null },
    overview: idle(),
    previous: idle(),
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
      const query = (start: string | null, end: string | null, limit: number) =>
        bridge().analytics.overview({
          platform: f.platform === 'all' ? undefined : f.platform,
          account_id: f.accountId === 'all' ? undefined : f.accountId,
          start_date: start ?? undefined,
          end_date: end ?? undefined,
          limit,
        });
      const before = previousPeriod(f.start, f.end);
      // Both periods at once: the comparison costs no extra wait, and only its totals are read (limit 1).
      const [r, p] = await Promise.all([
        settle(() => query(f.start, f.end, 20)),
        before ? settle(() => query(before.start, before.end, 1)) : Promise.resolve(null),
      ]);
      noteService(r);
      if (mine !== generation) return;
      set({ overview: settleInto(get().overview, r), previous: p ? settleInto(idle(), p) : idle() });
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
