/**
 * The core's settings service does not announce changes; the shell must follow two of them (start at
 * login, update channel). This wraps the service that everyone writes through and fires after updates.
 */
import type { SettingsService } from '../core/config/settings';
import type { ShellSettings, ShellSettingsSource } from './capabilities';
import { Emitter } from '../core/common/events';

const shellView = (s: ReturnType<SettingsService['get']>): ShellSettings => ({
  startAtLogin: s.startAtLogin,
  updateChannel: s.updateChannel,
});

export function observeSettings(inner: SettingsService): {
  readonly service: SettingsService;
  readonly source: ShellSettingsSource;
} {
  const changed = new Emitter<ShellSettings>();
  return {
    service: {
      get: () => inner.get(),
      update: (patch) => {
        const before = shellView(inner.get());
        const after = inner.update(patch);
        const view = shellView(after);
        if (view.startAtLogin !== before.startAtLogin || view.updateChannel !== before.updateChannel) {
          changed.fire(view);
        }
        return after;
      },
    },
    source: { get: () => shellView(inner.get()), onDidChange: changed.event },
  };
}
