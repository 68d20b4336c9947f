import { create } from 'zustand';
import type { BridgeError, UpdateState } from '../../../src-shared/ipc';
import { bridge, idle, loadableActions, loaded, type Loadable } from './bridge';

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
  const { load, act } = loadableActions<UpdateState, 'check' | 'restart'>(set, get);
  return {
    state: idle(),
    busy: null,
    actionError: null,
    load: () => load(() => bridge().updates.state()),
    listen() {
      return bridge().updates.onDidChangeUpdateState((s) => set({ state: loaded(s) }));
    },
    check: () => act('check', () => bridge().updates.check()),
    restartNow: () => act('restart', () => bridge().updates.restartNow()),
  };
});
