import type { UpdateState } from '../../../src-shared/ipc/updates';
import type { Handlers } from './handler-types';
import type { SettingsPort, UpdatesPort } from './ports';

/** `updates`: the desktop updater's state, a check, and the restart it asks for. */
export function updatesHandlers(updates: UpdatesPort): Handlers['updates'] {
  return {
    state: async () => updates.state(),
    check: () => updates.check(),
    restartNow: async () => updates.restartNow(),
  };
}

/** `postdesk web` does not update itself (the desktop app does): every `updates` channel says phase `unsupported`. */
export function unsupportedUpdates(settings: SettingsPort, version: string): Handlers['updates'] {
  const unsupported = async (): Promise<UpdateState> => ({
    phase: 'unsupported',
    channel: (await settings.get()).update_channel,
    currentVersion: version,
    availableVersion: null,
    progress: null,
    waitingFor: null,
    restartRequested: false,
    error: null,
    lastCheckedAt: null,
  });
  return { state: unsupported, check: unsupported, restartNow: unsupported };
}
