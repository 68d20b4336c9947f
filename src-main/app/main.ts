/**
 * The Electron entry (electron-vite's main input): builds the core side for the desktop (store,
 * settings, bridge session, executor) and hands it to the shell. Everything that must happen before
 * `ready` (privileged schemes, the single-instance lock, `open-url`) happens on the first tick.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, powerMonitor, protocol, shell, type BrowserWindow } from 'electron';
import { errorText } from '../core/common/error-text';
import type { Executor } from '../core/executor';
import type { StartSandboxFn } from '../core/sandbox-link';
import { DEV_BUILD } from './build-flags';
import type { DeepLinkRoute } from './deep-links';
import { openDesktopCore } from './desktop-core';
import { dialogAskToQuit } from './dialogs';
import type { ExecutorHost } from './executor-host';
import type { DesktopBridge } from './ipc-handlers';
import { createAppLog } from './log';
import { startShell, type Shell } from './shell';
import { exposeTestHooks, testHooksEnabled } from './test-hooks';
import { updateNotice } from './update-state';
import { createMainWindow, devServerUrlFor, registerPrivilegedSchemes } from './window';

const here = dirname(fileURLToPath(import.meta.url));
// The window loads it and the IPC gate trusts it: never in a packaged or production build.
const devServerUrl = devServerUrlFor(app, process.env, DEV_BUILD);
const testHooks = testHooksEnabled(process.env, app.isPackaged);
// The launch tests give each app a profile of its own: the single-instance lock lives in userData.
if (testHooks && process.env.POSTDESK_DATA_DIR) app.setPath('userData', process.env.POSTDESK_DATA_DIR);
const dataDir = process.env.POSTDESK_DATA_DIR ?? app.getPath('userData');
const log = createAppLog(dataDir);
// Nothing in main may fail unseen: a promise nobody awaited still leaves its line.
process.on('unhandledRejection', (reason) =>
  log.error('a background task failed with no one to handle it', { error: errorText(reason) }),
);

/** "Try offline": the sandbox in this process, loaded on demand (most sessions never need Fastify). */
const startSandboxInProcess: StartSandboxFn = async (opts) => {
  const { startSandbox } = await import('../../src-sandbox/app');
  const s = await startSandbox({ ...opts, quiet: true });
  if (!s.apiKey) {
    await s.close();
    throw new Error('the sandbox data was seeded without an API key');
  }
  return { url: s.url, apiKey: s.apiKey, close: () => s.close() };
};

async function main(): Promise<void> {
  log.info('Postdesk starting', { version: app.getVersion(), platform: process.platform });
  // The renderer's and the media previews' schemes: one call, before ready.
  registerPrivilegedSchemes(protocol);
  // Windows shows notifications only for the AppUserModelID the installer's shortcut carries (appId).
  if (process.platform === 'win32') app.setAppUserModelId('app.postdesk.desktop');

  let desktop: DesktopBridge | null = null;
  let shellRef: Shell | null = null;
  let executorRef: ExecutorHost<Executor> | null = null;
  const closers: Array<() => Promise<void> | void> = [];
  let closing: Promise<void> | null = null;
  const closeCore = (): Promise<void> =>
    (closing ??= (async () => {
      // In order: stop listening first, then the executor and the session, the store last.
      for (const close of closers.splice(0)) {
        await Promise.resolve()
          .then(close)
          .catch((error: unknown) => log.warn('a step of closing failed', { error: errorText(error) }));
      }
    })());

  shellRef = await startShell({
    app,
    powerMonitor,
    argv: process.argv,
    platform: process.platform,
    protocol: {
      defaultApp: process.defaultApp === true,
      execPath: process.execPath,
      entryScript: process.argv[1] ? resolve(process.argv[1]) : undefined,
    },
    resourcesDir: app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources'),
    log,
    openLogsFolder: () =>
      void shell.openPath(dirname(log.file)).then((problem) => {
        if (problem) log.warn('the logs folder could not be opened', { error: problem });
      }),
    closeCore,
    askToQuit: dialogAskToQuit(dialog, () => shellRef?.windows.current() ?? null),
    createWindow: () => {
      if (!desktop) throw new Error('the window was asked for before the core was ready');
      return createMainWindow({
        preloadPath: join(here, '../preload/index.cjs'),
        rendererDir: join(here, '../renderer'),
        devServerUrl,
        media: desktop.bridge.media,
        openExternal: (url) => shell.openExternal(url),
        log,
      });
    },
    navigate: (win: BrowserWindow, route: DeepLinkRoute) => {
      // Kept for `app:pendingRoute` too: a window made for this link subscribes only as its page starts.
      desktop?.bridge.routes.open(route);
      const emit = (): void => void desktop?.bridge.events.emit('app:didOpenRoute', route);
      if (win.webContents.isLoading()) win.webContents.once('did-finish-load', emit);
    },
    services: async () => {
      const core = openDesktopCore({
        dataDir,
        log,
        devServerUrl,
        startSandbox: startSandboxInProcess,
        shell: () => shellRef,
        closers,
      });
      desktop = core.desktop;
      executorRef = core.executor;
      return core.services;
    },
  });

  if (!shellRef) return;
  if (testHooks) {
    const shell = shellRef;
    exposeTestHooks(globalThis, () => ({
      tray: shell.tray.describe(),
      executor: executorRef
        ? { state: executorRef.state(), activeRuns: executorRef.activeRuns().length }
        : null,
    }));
    log.warn('test hooks are on (POSTDESK_TEST_HOOKS=1): this run is for the desktop tests');
  }
  // A quit for an update is not held (it was drained first), so the core closes on its way out here.
  app.once('will-quit', () => void closeCore());

  // Settings follows the whole state; the moments that matter are also told as notices.
  const updates = shellRef.updates;
  if (updates) {
    let phase = updates.state().phase;
    updates.onDidChangeUpdateState((s) => {
      desktop?.bridge.events.emit('updates:didChangeUpdateState', s);
      if (s.phase === phase) return;
      phase = s.phase;
      const notice = updateNotice(s);
      if (notice) desktop?.bridge.events.emit('app:didNotify', notice);
    });
  }
}

main().catch((error: unknown) => {
  log.error('Postdesk failed to start', { error: errorText(error) });
  app.exit(1);
});
