import { create } from 'zustand';
import type { BridgeResult, SettingsPatch, SettingsView } from '../../../src-shared/ipc';
import { bridge, idle, loaded, loading, settle, settleInto, type Loadable } from './bridge';

interface SettingsState {
  readonly settings: Loadable<SettingsView>;
  readonly saving: boolean;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<BridgeResult<SettingsView>>;
  listen(): () => void;
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  settings: idle(),
  saving: false,
  async load() {
    set({ settings: loading(get().settings) });
    const r = await settle(() => bridge().settings.get());
    set({ settings: settleInto(get().settings, r) });
  },
  async update(patch) {
    set({ saving: true });
    const r = await settle(() => bridge().settings.update(patch));
    set({ saving: false, ...(r.ok ? { settings: loaded(r.value) } : {}) });
    return r;
  },
  listen() {
    return bridge().settings.onDidChange((s) => set({ settings: loaded(s) }));
  },
}));
