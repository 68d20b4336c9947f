/**
 * `ELECTRON_RENDERER_URL` is electron-vite's dev server. If a packaged app honoured it, one environment
 * variable would load any origin in the window with the whole bridge, and the IPC gate would trust it.
 * The real entry (src-main/app/main.ts) boots on the Electron fake as a packaged app, with the variable
 * (and electron-vite's own dev marker) set, and a page on that origin asks the gate for something.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { electronFake, installElectronForRequire, FakeEvent } from '../helpers/electron-fake';
import { until } from '../helpers/shell-fakes';
import { FORBIDDEN } from '../../src-main/app/ipc-gate';
import { APP_ENTRY, devServerUrlFor } from '../../src-main/app/window';

vi.mock('electron', () => electronFake.module);

const EVIL = 'http://127.0.0.1:5173';
const dataDir = mkdtempSync(join(tmpdir(), 'pd-dev-server-'));
const saved = { argv: process.argv, env: { ...process.env }, resources: process.resourcesPath };
const restoreRequire = installElectronForRequire();

afterAll(() => {
  process.argv = saved.argv;
  for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k];
  Object.assign(process.env, saved.env);
  (process as { resourcesPath?: string }).resourcesPath = saved.resources;
  restoreRequire();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the dev server address', () => {
  it('is honoured only by an unpackaged development build that electron-vite dev started', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173', NODE_ENV_ELECTRON_VITE: 'development' };
    expect(devServerUrlFor({ isPackaged: false }, env, true)).toBe('http://localhost:5173');
    expect(devServerUrlFor({ isPackaged: true }, env, true)).toBeNull();
    expect(devServerUrlFor({ isPackaged: false }, env, false)).toBeNull();
    expect(
      devServerUrlFor({ isPackaged: false }, { ...env, NODE_ENV_ELECTRON_VITE: 'production' }, true),
    ).toBeNull();
    // Even in development, only a dev server on this machine.
    expect(
      devServerUrlFor({ isPackaged: false }, { ...env, ELECTRON_RENDERER_URL: 'https://evil.example' }, true),
    ).toBeNull();
  });

  it('a packaged app loads its own scheme and its gate refuses the variable’s origin', async () => {
    electronFake.reset();
    const app = electronFake.app;
    app.isPackaged = true;
    (process as { resourcesPath?: string }).resourcesPath = dataDir;
    process.env.POSTDESK_DATA_DIR = dataDir;
    // Keeps the OS keychain out of this test: the session sees a key in the environment.
    process.env.POSTDESK_API_KEY = 'dev-server-test-key';
    process.env.ELECTRON_RENDERER_URL = EVIL;
    process.env.NODE_ENV_ELECTRON_VITE = 'development';
    process.argv = ['/opt/Postdesk/postdesk'];

    await import('../../src-main/app/main');
    await until(() => electronFake.state.windows.length === 1, 'the main window');
    const win = electronFake.state.windows[0]!;
    const wc = win.webContents;
    expect(wc.loaded).toEqual([APP_ENTRY]);

    // Navigation to the variable's origin is stopped.
    const nav = Object.assign(new FakeEvent(), { url: `${EVIL}/index.html`, isMainFrame: true });
    wc.emit('will-frame-navigate', nav);
    expect(nav.defaultPrevented).toBe(true);

    // Had the page got there anyway, the gate answers it nothing.
    const invoke = electronFake.state.ipcHandlers.get('app:info');
    if (!invoke) throw new Error('app:info is not registered');
    wc.mainFrame.url = `${EVIL}/index.html`;
    expect(await invoke({ sender: wc, senderFrame: wc.mainFrame }, undefined)).toEqual(FORBIDDEN);
    wc.mainFrame.url = APP_ENTRY;
    expect(await invoke({ sender: wc, senderFrame: wc.mainFrame }, undefined)).toMatchObject({ ok: true });

    electronFake.lastMenu().click('Quit Postdesk');
    await until(() => app.calls.exit.length === 1, 'exit');
  });
});
