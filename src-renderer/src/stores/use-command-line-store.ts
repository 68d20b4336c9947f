import { create } from 'zustand';
import type { BridgeError, CommandLineState } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';

interface CommandLineStore {
  readonly state: Loadable<CommandLineState>;
  readonly busy: 'install' | 'uninstall' | null;
  /** Why the last install or removal did not happen (not confirmed, a command already there…). */
  readonly actionError: Readonly<BridgeError> | null;
  load(): Promise<void>;
  install(): Promise<void>;
  uninstall(): Promise<void>;
}

/** The `postdesk` command on the PATH, which the desktop app installs on request (Settings). */
export const useCommandLineStore = create<CommandLineStore>()((set, get) => {
  const act = async (busy: 'install' | 'uninstall') => {
    set({ busy, actionError: null });
    const b = bridge().commandLine;
    const r = await settle(() => (busy === 'install' ? b.install() : b.uninstall()));
    set(r.ok ? { busy: null, state: settleInto(get().state, r) } : { busy: null, actionError: r.error });
  };
  return {
    state: idle(),
    busy: null,
    actionError: null,
    async load() {
      set({ state: loading(get().state) });
      const r = await settle(() => bridge().commandLine.status());
      set({ state: settleInto(get().state, r) });
    },
    install: () => act('install'),
    uninstall: () => act('uninstall'),
  };
});
