/**
 * Start at login: a setting, off by default, applied whenever it changes and turned off for real when
 * switched off (ollama#162). macOS and Windows use Electron's login items; Linux has no such API in
 * Electron, so we write (or remove) an XDG autostart entry.
 */
import { dirname, join } from 'node:path';
import type { App } from 'electron';
import type { Logger, ShellSettingsSource } from './capabilities';
import type { Disposable } from '../core/common/events';
import { errorText } from '../core/common/error-text';
import { ensureDirSync, pathExistsSync, removePathSync, writePrivateFileSync } from '../core/files';

/** Passed when the OS starts us at login: start in the tray without opening the window. */
export const HIDDEN_FLAG = '--hidden';

/** Quotes one argument for a desktop entry's Exec key (Desktop Entry Specification, "The Exec key"). */
export function quoteExecArg(arg: string): string {
  const escapedPercent = arg.replace(/%/g, '%%');
  if (!/[\s"'\\><~|&;$*?#()`]/.test(escapedPercent)) return escapedPercent;
  const quoted = `"${escapedPercent.replace(/(["`$\\])/g, '\\$1')}"`;
  // The string-value escape rule applies on top of the quoting rule: every backslash is doubled again.
  return quoted.replace(/\\/g, '\\\\');
}

export function autostartEntry(name: string, command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${name}`,
    `Comment=Start ${name} in the tray at login`,
    `Exec=${command.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The XDG autostart entry: `$XDG_CONFIG_HOME/autostart/<id>.desktop`. */
export class LinuxAutostart {
  readonly file: string;

  constructor(
    private readonly opts: Readonly<{ configHome: string; id: string; name: string; executable: string }>,
  ) {
    this.file = join(opts.configHome, 'autostart', `${opts.id}.desktop`);
  }

  isEnabled(): boolean {
    return pathExistsSync(this.file);
  }

  enable(): void {
    ensureDirSync(dirname(this.file));
    writePrivateFileSync(this.file, autostartEntry(this.opts.name, [this.opts.executable, HIDDEN_FLAG]), {
      mode: 0o644,
    });
  }

  disable(): void {
    removePathSync(this.file);
  }
}

export type LoginItemDeps = Readonly<{
  app: Pick<App, 'setLoginItemSettings'>;
  platform: NodeJS.Platform;
  /** Only the packaged app registers itself: a dev run would register the bare Electron binary. */
  isPackaged: boolean;
  linux: LinuxAutostart;
  log: Logger;
}>;

export class LoginItemService {
  constructor(private readonly deps: LoginItemDeps) {}

  apply(enabled: boolean): void {
    const { app, platform, isPackaged, linux, log } = this.deps;
    if (!isPackaged) {
      log.info('start at login is left alone outside the packaged app', { enabled });
      return;
    }
    try {
      if (platform === 'linux') {
        if (enabled) linux.enable();
        else linux.disable();
      } else {
        // Windows passes args to the Run entry; macOS cannot, and reports wasOpenedAtLogin instead.
        app.setLoginItemSettings(
          platform === 'win32' ? { openAtLogin: enabled, args: [HIDDEN_FLAG] } : { openAtLogin: enabled },
        );
      }
      log.info('start at login applied', { enabled });
    } catch (error) {
      log.error('could not change start at login', { enabled, error: errorText(error) });
    }
  }

  /** Applies the setting now and whenever it changes. */
  bind(settings: ShellSettingsSource): Disposable {
    let current = settings.get().startAtLogin;
    this.apply(current);
    return settings.onDidChange((next) => {
      if (next.startAtLogin === current) return;
      current = next.startAtLogin;
      this.apply(current);
    });
  }
}

/** Whether the OS started us at login, so we stay in the tray. */
export function wasStartedAtLogin(
  argv: readonly string[],
  app: Pick<App, 'getLoginItemSettings'>,
  platform: NodeJS.Platform,
): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true;
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
}
