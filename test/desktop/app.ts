import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, expect, type ElectronApplication, type Page } from '@playwright/test';
import { TEST_HOOKS_GLOBAL, type TestHookView, type TestHooks } from '../../src-main/app/test-hooks';
import { APP_DIR, BUILT_MAIN, electronRuntime } from './electron-runtime';

export type LaunchedApp = Readonly<{
  app: ElectronApplication;
  /** The main window's page. */
  page: Page;
  /** This launch's profile and data (userData and POSTDESK_DATA_DIR): fresh for every launch. */
  dataDir: string;
  /** The environment the app runs with: a second launch must use the same one. */
  env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}>;

/** Variables of the test runner's environment that would change what the app does. */
const DROPPED = new Set([
  'ELECTRON_RUN_AS_NODE',
  'ELECTRON_RENDERER_URL',
  'POSTDESK_API_KEY',
  'POSTDESK_BASE_URL',
  'NODE_OPTIONS',
]);

export function appEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !DROPPED.has(k)) env[k] = v;
  return { ...env, POSTDESK_TEST_HOOKS: '1', POSTDESK_DATA_DIR: dataDir };
}

export function electronBinary(): string {
  const bin = electronRuntime();
  if (!bin) throw new Error('no Electron runtime is installed: run these through `npm run test:desktop`');
  if (!existsSync(BUILT_MAIN)) throw new Error('the app is not built: run `npm run build` first');
  return bin;
}

/** Starts the built app as `electron <repo> …args` with a profile of its own and the test hook on. */
export async function launchApp(args: readonly string[] = []): Promise<LaunchedApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'postdesk-desktop-'));
  const env = appEnv(dataDir);
  const app = await _electron.launch({
    executablePath: electronBinary(),
    args: [APP_DIR, ...args],
    env,
    cwd: APP_DIR,
    timeout: 60_000,
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return {
    app,
    page,
    dataDir,
    env,
    async close() {
      // A real quit: before-quit is held while the work in progress drains, then the app exits.
      const closing = app.close();
      const killed = new Promise<void>((resolve) =>
        setTimeout(() => {
          app.process().kill();
          resolve();
        }, 45_000).unref(),
      );
      await Promise.race([closing, killed]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Main's state through the test hook (src-main/app/test-hooks.ts), once the shell has put it up. */
export async function mainView(app: ElectronApplication): Promise<TestHookView> {
  const read = () =>
    app.evaluate((_electron, name) => {
      const hooks = (globalThis as Record<string, unknown>)[name] as TestHooks | undefined;
      return hooks ? hooks.view() : null;
    }, TEST_HOOKS_GLOBAL);
  await expect.poll(read, { message: 'the test hook in main' }).not.toBeNull();
  return (await read()) as TestHookView;
}

/** The main window as main sees it. */
export function mainWindow(app: ElectronApplication) {
  return app.evaluate(({ BrowserWindow }) => {
    const [win] = BrowserWindow.getAllWindows().filter((w) => !w.isDestroyed());
    if (!win) return null;
    return {
      id: win.id,
      visible: win.isVisible(),
      minimized: win.isMinimized(),
      focused: win.isFocused(),
      url: win.webContents.getURL(),
    };
  });
}

/** "Try offline" on Connect: the sandbox starts inside the app and the main screens open. */
export async function tryOffline(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Try offline' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
}
