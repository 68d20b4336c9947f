/**
 * Boots the real entry (src-main/app/main.ts) on the Electron fake: the core opens a real SQLite store
 * in a temporary data directory, the bridge registers its channels, the shell puts up its tray, and a
 * quit drains and closes everything. Started "at login" (`--hidden`), so no window is made.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { electronFake } from '../../helpers/electron-fake';
import { until } from '../../helpers/shell-fakes';

vi.mock('electron', () => electronFake.module);

const dataDir = mkdtempSync(join(tmpdir(), 'postdesk-boot-'));
const saved = { argv: process.argv, data: process.env.POSTDESK_DATA_DIR, key: process.env.POSTDESK_API_KEY };

afterAll(() => {
  process.argv = saved.argv;
  if (saved.data === undefined) delete process.env.POSTDESK_DATA_DIR;
  else process.env.POSTDESK_DATA_DIR = saved.data;
  if (saved.key === undefined) delete process.env.POSTDESK_API_KEY;
  else process.env.POSTDESK_API_KEY = saved.key;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('main.ts', () => {
  it('boots the core and the shell, and quits cleanly', async () => {
    electronFake.reset();
    process.env.POSTDESK_DATA_DIR = dataDir;
    // Keeps the OS keychain out of this test: the session sees a key in the environment.
    process.env.POSTDESK_API_KEY = 'boot-test-key';
    process.argv = ['/usr/lib/electron', '/app/out/main/index.js', '--hidden'];
    const app = electronFake.app;

    await import('../../../src-main/app/main');
    await until(() => electronFake.state.trays.length === 1, 'the tray');

    expect(app.calls.exit).toEqual([]);
    expect(app.lockHeld).toBe(true);
    expect(app.protocolClients.map((p) => p.scheme)).toEqual(['postdesk']);
    expect(electronFake.state.privilegedSchemes.length).toBeGreaterThan(0);
    expect([...electronFake.state.ipcHandlers.keys()]).toEqual(
      expect.arrayContaining(['connection:status', 'media:upload', 'settings:get']),
    );
    expect(electronFake.state.windows).toHaveLength(0);
    expect(existsSync(join(dataDir, 'postdesk.db'))).toBe(true);
    // Not connected to any service yet: the executor is stopped and the tray asks for attention.
    expect(electronFake.lastMenu().labels()).toEqual(
      expect.arrayContaining(['Open Postdesk', 'Quit Postdesk']),
    );
    expect(electronFake.state.trays[0]?.toolTip).toContain('not connected');

    // The app's log: a private file in a private folder of its data directory, opened from the tray.
    const logs = join(dataDir, 'logs');
    expect(readFileSync(join(logs, 'postdesk.log'), 'utf8')).toMatch(/ info Postdesk starting \{"version":/);
    expect(statSync(logs).mode & 0o777).toBe(0o700);
    expect(statSync(join(logs, 'postdesk.log')).mode & 0o777).toBe(0o600);
    electronFake.lastMenu().click('Open logs folder');
    expect(electronFake.state.openedPaths).toEqual([logs]);

    electronFake.lastMenu().click('Quit Postdesk');
    await until(() => app.calls.exit.length === 1, 'exit');
    expect(app.calls.exit).toEqual([0]);
    expect(electronFake.state.trays[0]?.destroyed).toBe(true);
    expect(electronFake.state.ipcHandlers.size).toBe(0);
  });
});
