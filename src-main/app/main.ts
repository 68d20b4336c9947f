/**
 * The Electron entry (electron-vite's main input): builds the core side for the desktop (store,
 * settings, bridge session, executor) and hands it to the shell. Everything that must happen before
 * `ready` (privileged schemes, the single-instance lock, `open-url`) happens on the first tick.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, powerMonitor, protocol, shell, type BrowserWindow } from 'electron';
import { fail, type BridgeResult } from '../../src-shared/ipc/bridge-error';
import type { ApiClient } from '../core/api/client';
import type { BridgeDispatcher } from '../core/bridge/dispatcher';
import type { Disposable } from '../core/common/events';
import {
  executorPortFor,
  followExecutorSettings,
  forwardExecutorEvents,
  viewStatus,
} from '../core/bridge/executor-port';
import type { Executor } from '../core/executor';
import { createExecutorFromCore } from '../core/executor/from-core';
import type { StartSandboxFn } from '../core/sandbox-link';
import { openLocal } from '../core/services';
import { SessionConnection } from './connection-status';
import type { DeepLinkRoute } from './deep-links';
import { ExecutorHost } from './executor-host';
import { registerIpcHandlers } from './ipc-gate';
import { createDesktopBridge, type DesktopBridge } from './ipc-handlers';
import { createAppLog } from './log';
import { errorText } from '../core/common/error-text';
import { LinuxAutostart, LoginItemService } from './login-item';
import { observeSettings } from './settings-source';
import { startShell, type Shell } from './shell';
import { UploadTracker, UploadsClosedError } from './upload-tracker';
import { loadAutoUpdater } from './updater';
import { updateNotice } from './update-state';
import { deliveryEventsOf, disabledUpdateState, inboxEventsOf, updatesPortFor } from './bridge-adapters';
import { exposeTestHooks, testHooksEnabled } from './test-hooks';
import { createMainWindow, devServerUrlFor, isRendererUrl, registerPrivilegedSchemes } from './window';
import { DEV_BUILD } from './build-flags';
import { dialogAskToQuit, dialogConfirm, dialogPicker, dialogSaver } from './dialogs';
import { QUIT_HORIZON_MS } from '../core/gaps/decisions';
import { upcomingOccurrences } from '../core/gaps/upcoming';
import { UPTIME_BEAT_MS, openUptimeLog } from '../core/gaps/uptime';
import { commandLinePort } from './command-line';

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

/** Counts `media:upload` calls as uploads in progress, so quitting and updating wait for them. */
function trackUploads(dispatcher: BridgeDispatcher, uploads: UploadTracker): BridgeDispatcher {
  return {
    subscribe: (listener) => dispatcher.subscribe(listener),
    invoke: (channel, input): Promise<BridgeResult<unknown>> => {
      if (channel !== 'media:upload') return dispatcher.invoke(channel, input);
      return uploads
        .track('media upload', () => dispatcher.invoke(channel, input))
        .catch((e: unknown) => {
          if (e instanceof UploadsClosedError) return fail({ kind: 'unavailable', message: e.message });
          throw e;
        });
    },
  };
}

/** The desktop executor for a service client; null when none can be built (no agent chosen yet). */
async function executorFor(
  client: ApiClient,
  offline: boolean,
  local: ReturnType<typeof openLocal>,
): Promise<Executor | null> {
  try {
    return await createExecutorFromCore(
      {
        dataDir,
        store: local.store,
        secrets: local.secrets,
        settings: local.settings,
        client,
        endpoint: { baseUrl: client.baseUrl, sandbox: offline ? { url: client.baseUrl } : null },
      },
      {
        overrides: {
          logger: {
            debug: (m, f) => log.debug(`executor: ${m}`, f),
            info: (m, f) => log.info(`executor: ${m}`, f),
            warn: (m, f) => log.warn(`executor: ${m}`, f),
            error: (m, f) => log.error(`executor: ${m}`, f),
          },
        },
      },
    );
  } catch (error) {
    log.warn('the executor is not started', { error: errorText(error) });
    return null;
  }
}

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
      const opened = openLocal(dataDir);
      // When Postdesk runs, for Settings' marks on the occurrences that fall while it usually does not.
      const uptime = openUptimeLog(opened.store).start('app');
      const beat = setInterval(() => uptime.beat(), UPTIME_BEAT_MS);
      beat.unref();
      const settings = observeSettings(opened.settings);
      const local = { ...opened, settings: settings.service };
      // The shell owns the executor (sleep, quit and updates drive it); the bridge reads it through a port.
      const executor = new ExecutorHost<Executor>(log);
      executorRef = executor;
      // Made before the bridge: uploads it resumes at start-up are in progress like any other.
      const uploads = new UploadTracker(log);
      desktop = createDesktopBridge({
        dataDir,
        version: app.getVersion(),
        startSandbox: startSandboxInProcess,
        local,
        openExternal: (url) => shell.openExternal(url),
        ports: () => ({ executor: executorPortFor(() => executor.current()) }),
        // Changing what Postdesk runs is confirmed in main's own dialog; files come as grants of its own.
        confirm: dialogConfirm(dialog, () => shellRef?.windows.current() ?? null),
        picker: dialogPicker(dialog, () => shellRef?.windows.current() ?? null),
        saver: dialogSaver(dialog, () => shellRef?.windows.current() ?? null),
        commandLine: commandLinePort(app, process),
        // The update service is made by the shell after this bridge: read it late.
        updates: updatesPortFor(
          () => shellRef?.updates ?? null,
          () => disabledUpdateState(settings.source.get().updateChannel, app.getVersion()),
        ),
        log,
        logFile: log.file,
        trackUploads: (name, work) => uploads.track(name, work),
      });
      const bridge = desktop;
      const gate = registerIpcHandlers({
        dispatcher: trackUploads(bridge.bridge.dispatcher, uploads),
        window: () => shellRef?.windows.current() ?? null,
        isTrustedUrl: (url) => isRendererUrl(url, devServerUrl),
        grants: bridge.bridge.grants,
      });

      let forward: Disposable | null = null;
      const switched = executor.onDidSwitch((ex) => {
        forward?.dispose();
        forward = ex ? forwardExecutorEvents(ex, bridge.bridge.events) : null;
        bridge.bridge.events.emit('executor:didChangeStatus', viewStatus(ex));
      });
      // A new executor for each connection (Connect, "Try offline"); none while disconnected.
      const follow = async (client: ApiClient | null): Promise<void> => {
        await executor.use(client ? await executorFor(client, bridge.session.isOffline(), local) : null);
      };
      const unfollow = bridge.session.onDidSwitch((client) => void follow(client));
      void follow(bridge.session.current());
      // Agent commands, concurrency and the missed-run policy apply without a reconnect.
      const settingsFollow = followExecutorSettings({
        events: bridge.bridge.events,
        settings: local.settings,
        current: () => executor.current(),
        rebuild: () => void follow(bridge.session.current()),
      });

      const connection = new SessionConnection(bridge.session, log);
      void connection.refresh();

      closers.push(
        () => {
          clearInterval(beat);
          uptime.stop();
        },
        () => gate.dispose(),
        unfollow,
        () => settingsFollow.dispose(),
        () => connection.dispose(),
        () => switched.dispose(),
        () => forward?.dispose(),
        () => executor.dispose(),
        () => bridge.close(),
        () => opened.store.close(),
      );

      const engine = app.isPackaged ? loadAutoUpdater() : null;
      return {
        executor,
        uploads,
        connection,
        // The core polls for failed deliveries (also sent to the window as posts:didFailDelivery).
        deliveries: deliveryEventsOf(bridge.bridge.deliveries),
        upcoming: () => {
          const now = new Date();
          return upcomingOccurrences(executor.current()?.automations() ?? [], now, {
            limit: 500,
            until: new Date(now.getTime() + QUIT_HORIZON_MS),
          });
        },
        inbox: inboxEventsOf(bridge.bridge.inbox, bridge.bridge.proposals),
        settings: settings.source,
        loginItem: new LoginItemService({
          app,
          platform: process.platform,
          isPackaged: app.isPackaged,
          linux: new LinuxAutostart({
            configHome: process.env.XDG_CONFIG_HOME || join(app.getPath('home'), '.config'),
            id: 'postdesk',
            name: 'Postdesk',
            // An AppImage runs from a temporary mount: autostart must point at the file itself.
            executable: process.env.APPIMAGE ?? process.execPath,
          }),
          log,
        }),
        updater: engine,
      };
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
