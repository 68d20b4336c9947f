import { create } from 'zustand';
import type { AppInfo } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';
import { toast } from './use-toast-store';

interface AppState {
  readonly info: AppInfo | null;
  load(): Promise<void>;
  /** Relays the host's notices (an update is ready, …) as toasts. */
  listen(): () => void;
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  async load() {
    const r = await settle(() => bridge().app.info());
    if (r.ok) set({ info: r.value });
  },
  listen() {
    return bridge().app.onDidNotify((n) => toast(n.level, n.message));
  },
}));
