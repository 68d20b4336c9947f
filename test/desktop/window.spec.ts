import { expect, test } from '@playwright/test';
import type { PostdeskBridge } from '../../src-shared/ipc';
import { launchApp, type LaunchedApp } from './app';

/** What a page of ours may see: the bridge, and nothing of Node. */
type PageGlobals = { postdesk?: PostdeskBridge; require?: unknown; process?: unknown; Buffer?: unknown };

let launched: LaunchedApp;
test.beforeEach(async () => {
  launched = await launchApp();
});
test.afterEach(async () => {
  await launched.close();
});

test('the window opens on our own scheme with the hardened webPreferences, read back from the running app', async () => {
  const { app, page } = launched;
  const prefs = await app.evaluate(({ BrowserWindow }) => {
    const [win] = BrowserWindow.getAllWindows();
    if (!win) return null;
    // Electron's native reader of the preferences the page really runs with (not in its typings).
    const read: unknown = Reflect.get(win.webContents, 'getLastWebPreferences');
    if (typeof read !== 'function') throw new Error('this Electron has no getLastWebPreferences');
    const p = Reflect.apply(read, win.webContents, []) as Electron.WebPreferences | null;
    if (!p) return null;
    return {
      url: win.webContents.getURL(),
      contextIsolation: p.contextIsolation,
      sandbox: p.sandbox,
      nodeIntegration: p.nodeIntegration,
      nodeIntegrationInWorker: p.nodeIntegrationInWorker,
      nodeIntegrationInSubFrames: p.nodeIntegrationInSubFrames,
      webSecurity: p.webSecurity,
      allowRunningInsecureContent: p.allowRunningInsecureContent,
      webviewTag: p.webviewTag,
      experimentalFeatures: p.experimentalFeatures,
      navigateOnDragDrop: p.navigateOnDragDrop,
    };
  });
  expect(prefs).toEqual({
    url: expect.stringMatching(/^postdesk-app:\/\/renderer\//),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
  });

  // The page itself has the bridge and no Node: no require, no process, no Buffer.
  const seen = await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return {
      require: typeof g.require,
      process: typeof g.process,
      buffer: typeof g.Buffer,
      host: g.postdesk?.host,
    };
  });
  expect(seen).toEqual({ require: 'undefined', process: 'undefined', buffer: 'undefined', host: 'electron' });

  // Navigation away from the app is refused: the window stays on our renderer.
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toMatch(/^postdesk-app:\/\/renderer\//);
});

test('the bridge answers our window, and refuses a channel called from a frame that is not ours', async () => {
  const { app, page } = launched;
  const platform = await app.evaluate(() => process.platform);
  const info = await page.evaluate(() => (globalThis as unknown as PageGlobals).postdesk?.app.info());
  expect(info).toEqual({ ok: true, value: { host: 'electron', version: expect.any(String), platform } });

  // Another window, with our preload, showing our own renderer from our own scheme: everything but the
  // frame is right, and the gate still refuses it (the sender must be our main window's top frame).
  const refused = await app.evaluate(async ({ app: electronApp, BrowserWindow }) => {
    const [main] = BrowserWindow.getAllWindows();
    if (!main) throw new Error('no main window');
    const other = new BrowserWindow({
      show: false,
      webPreferences: {
        preload: `${electronApp.getAppPath()}/out/preload/index.cjs`,
        partition: 'persist:postdesk',
        contextIsolation: true,
        sandbox: true,
      },
    });
    try {
      await other.loadURL(main.webContents.getURL());
      return {
        host: (await other.webContents.executeJavaScript(
          'window.postdesk && window.postdesk.host',
        )) as unknown,
        info: (await other.webContents.executeJavaScript('window.postdesk.app.info()')) as unknown,
        accounts: (await other.webContents.executeJavaScript('window.postdesk.accounts.list()')) as unknown,
      };
    } finally {
      other.destroy();
    }
  });
  // The preload ran there (the bridge exists), so the refusal is the gate's, not a missing bridge.
  expect(refused.host).toBe('electron');
  for (const answer of [refused.info, refused.accounts]) {
    expect(answer).toEqual({ ok: false, error: { kind: 'forbidden', message: 'not the Postdesk window' } });
  }
  // Our own window is still answered afterwards.
  expect(
    await page.evaluate(() => (globalThis as unknown as PageGlobals).postdesk?.app.info()),
  ).toMatchObject({
    ok: true,
  });
});
