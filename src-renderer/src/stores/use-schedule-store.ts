import { create } from 'zustand';
import type { UpcomingList } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';

interface ScheduleState {
  readonly upcoming: Loadable<UpcomingList>;
  load(): Promise<void>;
}

export const useScheduleStore = create<ScheduleState>()((set, get) => ({
  upcoming: idle(),
  async load() {
    set({ upcoming: loading(get().upcoming) });
    const r = await settle(() => bridge().schedule.upcoming());
    set({ upcoming: settleInto(get().upcoming, r) });
  },
}));
