import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronFake } from '../../helpers/electron-fake';
import { FakeSettings, MemoryLog } from '../../helpers/shell-fakes';

vi.mock('electron', () => electronFake.module);

const { LinuxAutostart, LoginItemService, HIDDEN_FLAG, quoteExecArg, wasStartedAtLogin } =
  await import('../../../src-main/app/login-item');

let dir = '';
beforeEach(() => {
  electronFake.reset();
  dir = mkdtempSync(join(tmpdir(), 'postdesk-autostart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function service(platform: NodeJS.Platform, isPackaged = true, executable = '/opt/Postdesk/postdesk') {
  const linux = new LinuxAutostart({ configHome: dir, id: 'postdesk', name: 'Postdesk', executable });
  const log = new MemoryLog();
  const s = new LoginItemService({
    app: electronFake.app as unknown as Electron.App,
    platform,
    isPackaged,
    linux,
    log,
  });
  return { s, linux, log };
}

describe('start at login', () => {
  it('is off by default and follows the setting on Linux with an XDG autostart entry', () => {
    const { s, linux } = service('linux', true, '/home/me/Apps/Postdesk 0.1.0.AppImage');
    const settings = new FakeSettings();
    const binding = s.bind(settings);
    expect(linux.isEnabled()).toBe(false);

    settings.update({ startAtLogin: true });
    const entry = readFileSync(join(dir, 'autostart', 'postdesk.desktop'), 'utf8');
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec="/home/me/Apps/Postdesk 0.1.0.AppImage" --hidden');
    expect(entry).toContain('X-GNOME-Autostart-enabled=true');
    expect(statSync(linux.file).mode & 0o777).toBe(0o644);

    settings.update({ startAtLogin: false });
    expect(linux.isEnabled()).toBe(false);
    binding.dispose();
    settings.update({ startAtLogin: true });
    expect(linux.isEnabled()).toBe(false);
  });

  it('uses login items on Windows (with the hidden flag) and macOS', () => {
    const win = service('win32');
    win.s.apply(true);
    expect(electronFake.app.loginItem).toEqual({ openAtLogin: true, args: [HIDDEN_FLAG] });
    win.s.apply(false);
    expect(electronFake.app.loginItem).toEqual({ openAtLogin: false, args: [HIDDEN_FLAG] });

    const mac = service('darwin');
    mac.s.apply(true);
    expect(electronFake.app.loginItem).toEqual({ openAtLogin: true });
  });

  it('registers nothing from a development run', () => {
    const { s, linux } = service('linux', false);
    s.apply(true);
    expect(linux.isEnabled()).toBe(false);
    service('win32', false).s.apply(true);
    expect(electronFake.app.loginItem).toEqual({ openAtLogin: false });
  });

  it('logs rather than throws when the entry cannot be written', () => {
    const linux = new LinuxAutostart({
      configHome: '/dev/null/postdesk',
      id: 'postdesk',
      name: 'Postdesk',
      executable: '/x',
    });
    const log = new MemoryLog();
    new LoginItemService({
      app: electronFake.app as unknown as Electron.App,
      platform: 'linux',
      isPackaged: true,
      linux,
      log,
    }).apply(true);
    expect(log.entries.some((e) => e.level === 'error')).toBe(true);
  });
});

describe('desktop entry quoting', () => {
  it.each([
    ['/opt/Postdesk/postdesk', '/opt/Postdesk/postdesk'],
    ['/a b/c', '"/a b/c"'],
    ['/a"b', '"/a\\\\"b"'],
    ['/a$b', '"/a\\\\$b"'],
    ['/100%', '/100%%'],
  ])('%s → %s', (arg, quoted) => {
    expect(quoteExecArg(arg)).toBe(quoted);
  });
});

describe('wasStartedAtLogin', () => {
  it('reads the hidden flag, or macOS’s login item state', () => {
    const app = electronFake.app as unknown as Electron.App;
    expect(wasStartedAtLogin(['/x', HIDDEN_FLAG], app, 'linux')).toBe(true);
    expect(wasStartedAtLogin(['/x'], app, 'linux')).toBe(false);
    electronFake.app.loginItem = { wasOpenedAtLogin: true };
    expect(wasStartedAtLogin(['/x'], app, 'darwin')).toBe(true);
    expect(wasStartedAtLogin(['/x'], app, 'win32')).toBe(false);
  });
});
