import { create } from 'zustand';
import type { Delivery } from '../../../src-shared/api/posts';
import type { BridgeResult } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';

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
  return {
    range: null,
    deliveries: idle(),
    async setRange(start, end) {
      const prev = get().range;
      if (prev && prev.start === start && prev.end === end && get().deliveries.data) return;
      set({ range: { start, end } });
      await get().reload();
    },
    async reload() {
      const range = get().range;
      if (!range) return;
      const mine = ++generation;
      set({ deliveries: loading(get().deliveries) });
      const r = await settle(() => bridge().calendar.range({ start: range.start, end: range.end }));
      if (mine !== generation) return;
      set({ deliveries: settleInto(get().deliveries, r.ok ? { ok: true, value: r.value.deliveries } : r) });
    },
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
