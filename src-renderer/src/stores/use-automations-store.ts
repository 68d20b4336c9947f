import { create } from 'zustand';
import type { AutomationView, BridgeResult, RunRecord } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface AutomationsState {
  readonly automations: Loadable<readonly AutomationView[]>;
  readonly starting: string | null;
  load(): Promise<void>;
  runNow(id: string): Promise<BridgeResult<RunRecord>>;
}

export const useAutomationsStore = create<AutomationsState>()((set, get) => ({
  automations: idle(),
  starting: null,
  async load() {
    set({ automations: loading(get().automations) });
    const r = noteService(await settle(() => bridge().automations.list()));
    set({ automations: settleInto(get().automations, r.ok ? { ok: true, value: r.value.automations } : r) });
  },
  async runNow(id) {
    set({ starting: id });
    const r = await settle(() => bridge().automations.runNow({ id }));
    set({ starting: null });
    void get().load();
    return r.ok ? { ok: true, value: r.value.run } : r;
  },
}));
