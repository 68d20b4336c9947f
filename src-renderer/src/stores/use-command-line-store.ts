import { create } from 'zustand';
import type { BridgeError, CommandLineState } from '../../../src-shared/ipc';
import { bridge, idle, loadableActions, type Loadable } from './bridge';

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
  const { load, act } = loadableActions<CommandLineState, 'install' | 'uninstall'>(set, get);
  return {
    state: idle(),
    busy: null,
    actionError: null,
    load: () => load(() => bridge().commandLine.status()),
    install: () => act('install', () => bridge().commandLine.install()),
    uninstall: () => act('uninstall', () => bridge().commandLine.uninstall()),
  };
});
