import { create } from 'zustand';
import type { BridgeResult, MediaTools, SettingsPatch, SettingsView } from '../../../src-shared/ipc';
import { applyPreferences } from '../app/preferences';
import { bridge, idle, loadInto, loaded, loading, settle, settleInto, type Loadable } from './bridge';

interface SettingsState {
  readonly settings: Loadable<SettingsView>;
  readonly saving: boolean;
  /** Which ffmpeg and ffprobe main uses, asked again after each save (a path may have changed). */
  readonly tools: Loadable<MediaTools>;
  load(): Promise<void>;
  loadTools(): Promise<void>;
  update(patch: SettingsPatch): Promise<BridgeResult<SettingsView>>;
  listen(): () => void;
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  settings: idle(),
  saving: false,
  tools: idle(),
  async loadTools() {
    await loadInto(set, get, 'tools', () => bridge().media.tools());
  },
  async load() {
    set({ settings: loading(get().settings) });
    const r = await settle(() => bridge().settings.get());
    if (r.ok) applyPreferences(r.value);
    set({ settings: settleInto(get().settings, r) });
  },
  async update(patch) {
    set({ saving: true });
    const r = await settle(() => bridge().settings.update(patch));
    if (r.ok) applyPreferences(r.value);
    set({ saving: false, ...(r.ok ? { settings: loaded(r.value) } : {}) });
    if (r.ok && (patch.ffmpeg_path !== undefined || patch.ffprobe_path !== undefined)) void get().loadTools();
    return r;
  },
  listen() {
    return bridge().settings.onDidChange((s) => {
      applyPreferences(s);
      set({ settings: loaded(s) });
    });
  },
}));
