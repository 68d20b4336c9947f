import { create } from 'zustand';
import type { Delivery } from '../../../src-shared/api/posts';
import type { BridgeResult } from '../../../src-shared/ipc';
import { bridge, failed, fromIndex, idle, loading, RECHECK_MS, settle, type Loadable } from './bridge';
import { noteService, useServiceStore } from './use-service-store';

interface CalendarState {
  readonly range: { readonly start: string; readonly end: string } | null;
  readonly deliveries: Loadable<readonly Delivery[]>;
  setRange(start: string, end: string): Promise<void>;
  reload(): Promise<void>;
  listen(): () => void;
  reschedule(id: string, scheduledAt: string): Promise<BridgeResult<true>>;
}

export const useCalendarStore = create<CalendarState>()((set, get) => {
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
    const r = await settle(() => bridge().calendar.range({ start: range.start, end: range.end }));
    if (mine !== generation) return;
    noteService(r);
    if (!r.ok) return set({ deliveries: failed(get().deliveries, r.error) });
    const f = r.value.freshness;
    if (f && !f.refreshing) useServiceStore.getState().report(f.error);
    set({ deliveries: fromIndex(r.value.deliveries, r.value.freshness) });
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
    listen() {
      return bridge().posts.onDidChange(() => void get().reload());
    },
    async reschedule(id, scheduledAt) {
      const r = await settle(() => bridge().calendar.reschedule({ id, scheduled_at: scheduledAt }));
      void get().reload();
      return r.ok ? { ok: true, value: true } : r;
    },
  };
});
