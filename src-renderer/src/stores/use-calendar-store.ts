import { create } from 'zustand';
import type { Delivery } from '../../../src-shared/api/posts';
import type { BridgeResult } from '../../../src-shared/ipc';
import { CALENDAR_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { calendarTimeOf } from '../../../src-shared/ipc/calendar';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import { applyToDeliveries } from './post-changes';
import { bridge, failed, fromIndex, idle, loading, RECHECK_MS, settle, type Loadable } from './bridge';
import { noteService, useServiceStore } from './use-service-store';

interface CalendarState {
  readonly range: { readonly start: string; readonly end: string } | null;
  readonly deliveries: Loadable<readonly Delivery[]>;
  setRange(start: string, end: string): Promise<void>;
  reload(): Promise<void>;
  /** Applies one change of the posts to the deliveries shown, without reading the range again. */
  apply(change: Readonly<PostsChanged>): void;
  listen(): () => void;
  reschedule(id: string, scheduledAt: string): Promise<BridgeResult<true>>;
}

const timeOf = (d: Readonly<Delivery>): number => Date.parse(calendarTimeOf(d) ?? '') || 0;

export const useCalendarStore = create<CalendarState>()((set, get) => {
  let heardDuringLoad: PostsChanged[] | null = null;
  const apply = (rows: readonly Delivery[], change: Readonly<PostsChanged>) => {
    const range = get().range;
    const from = range ? Date.parse(range.start) : 0;
    const to = range ? Date.parse(range.end) : 0;
    return applyToDeliveries(
      rows,
      change,
      (d) =>
        CALENDAR_STATUSES.includes(d.status) &&
        calendarTimeOf(d) !== null &&
        timeOf(d) >= from &&
        timeOf(d) < to,
      (a, b) => timeOf(a) - timeOf(b),
    );
  };
  let generation = 0;
  let recheck: ReturnType<typeof setTimeout> | undefined;
  let rechecks = 0;
  const MAX_RECHECKS = 8;
  const reload = async (again: boolean) => {
    const range = get().range;
    if (!range) return;
    const mine = ++generation;
    clearTimeout(recheck);
    if (!again) rechecks = 0;
    set({ deliveries: loading(get().deliveries) });
    heardDuringLoad = [];
    const r = await settle(() => bridge().calendar.range({ start: range.start, end: range.end }));
    if (mine !== generation) return;
    const heard = heardDuringLoad;
    heardDuringLoad = null;
    if (!r.ok) {
      noteService(r);
      return set({ deliveries: failed(get().deliveries, r.error) });
    }
    // The local index answered: it says nothing of the service while the host is still asking it (the sidebar
    // would drop "not answering" for a moment), only once that ended, as the Posts screen's paged load does.
    const f = r.value.freshness;
    if (!f?.refreshing) useServiceStore.getState().report(f?.error ?? null);
    const shown = heard.reduce<readonly Delivery[]>((rows, c) => apply(rows, c).rows, r.value.deliveries);
    set({ deliveries: fromIndex([...shown], r.value.freshness) });
    // The host is still asking the service: ask again soon to learn how that ended.
    if (r.value.freshness?.refreshing && rechecks < MAX_RECHECKS) {
      rechecks += 1;
      recheck = setTimeout(() => void reload(true), RECHECK_MS);
    }
  };
  return {
    range: null,
    deliveries: idle(),
    async setRange(start, end) {
      const prev = get().range;
      if (prev && prev.start === start && prev.end === end && get().deliveries.data) return;
      set({ range: { start, end } });
      await get().reload();
    },
    reload: () => reload(false),
    apply(change) {
      heardDuringLoad?.push(change);
      const held = get().deliveries.data;
      if (!held) return;
      const r = apply(held, change);
      if (r.touched) set({ deliveries: { ...get().deliveries, data: r.rows } });
    },
    listen() {
      return bridge().posts.onDidChange((change) => get().apply(change));
    },
    async reschedule(id, scheduledAt) {
      const r = await settle(() => bridge().calendar.reschedule({ id, scheduled_at: scheduledAt }));
      return r.ok ? { ok: true, value: true } : r;
    },
  };
});
