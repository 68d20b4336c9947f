import { create } from 'zustand';
import type { BridgeError, UpdateState } from '../../../src-shared/ipc';
import { bridge, idle, loaded, loading, settle, settleInto, type Loadable } from './bridge';

interface UpdatesState {
  readonly state: Loadable<UpdateState>;
  readonly busy: 'check' | 'restart' | null;
  /** Why the last "check" or "restart now" call itself failed (the updater's own errors are in `state`). */
  readonly actionError: Readonly<BridgeError> | null;
  load(): Promise<void>;
  listen(): () => void;
  check(): Promise<void>;
  restartNow(): Promise<void>;
}

/** The desktop updater as Settings shows it; the web host answers phase `unsupported`. */
export const useUpdatesStore = create<UpdatesState>()((set, get) => {
  const act = async (busy: 'check' | 'restart') => {
    set({ busy, actionError: null });
    const b = bridge().updates;
    const r = await settle(() => (busy === 'check' ? b.check() : b.restartNow()));
    set(r.ok ? { busy: null, state: settleInto(get().state, r) } : { busy: null, actionError: r.error });
  };
  return {
    state: idle(),
    busy: null,
    actionError: null,
    async load() {
      set({ state: loading(get().state) });
      const r = await settle(() => bridge().updates.state());
      set({ state: settleInto(get().state, r) });
    },
    listen() {
      return bridge().updates.onDidChangeUpdateState((s) => set({ state: loaded(s) }));
    },
    check: () => act('check'),
    restartNow: () => act('restart'),
  };
});
