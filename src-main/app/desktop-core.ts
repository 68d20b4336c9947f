/**
 * The desktop's core side, opened once the shell is ready: the store and settings, the bridge with its IPC gate,
 * the executor slot that follows the connection, and the services the shell drives. `main.ts` hands it the
 * Electron objects it needs; every part it opens is closed by a closer it pushes, in order.
 */
import { join } from 'node:path';
import { app, dialog, shell, type BrowserWindow } from 'electron';
import { fail, type BridgeResult } from '../../src-shared/ipc/bridge-error';
import type { ApiClient } from '../core/api/client';
import type { BridgeDispatcher } from '../core/bridge/dispatcher';
import {
  executorPortFor,
  followExecutorSettings,
  forwardExecutorEvents,
  viewStatus,
} from '../core/bridge/executor-port';
import { errorText } from '../core/common/error-text';
import type { Disposable } from '../core/common/events';
import type { Executor } from '../core/executor';
import { createExecutorFromCore } from '../core/executor/from-core';
import { QUIT_HORIZON_MS } from '../core/gaps/decisions';
import { upcomingOccurrences } from '../core/gaps/upcoming';
import { UPTIME_BEAT_MS, openUptimeLog } from '../core/gaps/uptime';
import type { StartSandboxFn } from '../core/sandbox-link';
import { openLocal } from '../core/services';
import { deliveryEventsOf, disabledUpdateState, inboxEventsOf, updatesPortFor } from './bridge-adapters';
import { commandLinePort } from './command-line';
import { SessionConnection } from './connection-status';
import { dialogConfirm, dialogPicker, dialogSaver } from './dialogs';
import { ExecutorHost } from './executor-host';
import { registerIpcHandlers } from './ipc-gate';
import { createDesktopBridge, type DesktopBridge } from './ipc-handlers';
import type { AppLog } from './log';
import { LinuxAutostart, LoginItemService } from './login-item';
import { observeSettings } from './settings-source';
import type { Shell, ShellServices } from './shell';
import { loadAutoUpdater } from './updater';
import { UploadTracker, UploadsClosedError } from './upload-tracker';
import { isRendererUrl } from './window';

export interface DesktopCoreOptions {
  readonly dataDir: string;
  readonly log: AppLog;
  readonly devServerUrl: string | null;
  readonly startSandbox: StartSandboxFn;
  /** The shell, once started (its window and its update service are read late). */
  readonly shell: () => Shell | null;
  /** Where each part opened here registers its closing, in the order they run. */
  readonly closers: Array<() => Promise<void> | void>;
}

export interface DesktopCore {
  readonly desktop: DesktopBridge;
  readonly executor: ExecutorHost<Executor>;
  readonly services: ShellServices;
}

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
  o: Pick<DesktopCoreOptions, 'dataDir' | 'log'>,
  client: ApiClient,
  offline: boolean,
  local: ReturnType<typeof openLocal>,
): Promise<Executor | null> {
  const { log } = o;
  try {
    return await createExecutorFromCore(
      {
        dataDir: o.dataDir,
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

/**
 * A new executor for each connection (Connect, "Try offline"), none while disconnected, its events forwarded to
 * the pages; agent commands, concurrency and the missed-run policy apply without a reconnect.
 */
function followConnection(
  o: Pick<DesktopCoreOptions, 'dataDir' | 'log'>,
  executor: ExecutorHost<Executor>,
  bridge: DesktopBridge,
  local: ReturnType<typeof openLocal>,
): { readonly listening: Array<() => void>; readonly forwarding: Array<() => void> } {
  let forward: Disposable | null = null;
  const switched = executor.onDidSwitch((ex) => {
    forward?.dispose();
    forward = ex ? forwardExecutorEvents(ex, bridge.bridge.events) : null;
    bridge.bridge.events.emit('executor:didChangeStatus', viewStatus(ex));
  });
  const follow = async (client: ApiClient | null): Promise<void> => {
    await executor.use(client ? await executorFor(o, client, bridge.session.isOffline(), local) : null);
  };
  const unfollow = bridge.session.onDidSwitch((client) => void follow(client));
  void follow(bridge.session.current());
  const settingsFollow = followExecutorSettings({
    events: bridge.bridge.events,
    settings: local.settings,
    current: () => executor.current(),
    rebuild: () => void follow(bridge.session.current()),
  });
  return {
    listening: [unfollow, () => settingsFollow.dispose()],
    forwarding: [() => switched.dispose(), () => forward?.dispose()],
  };
}

/** Starting with the session: the packaged app's own executable, or the AppImage it runs from. */
function loginItemOf(log: AppLog): LoginItemService {
  return new LoginItemService({
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
  });
}

/** Opens the desktop's core side and answers the services the shell drives. */
export function openDesktopCore(o: DesktopCoreOptions): DesktopCore {
  const { log } = o;
  const window = (): BrowserWindow | null => o.shell()?.windows.current() ?? null;
  const opened = openLocal(o.dataDir);
  // When Postdesk runs, for Settings' marks on the occurrences that fall while it usually does not.
  const uptime = openUptimeLog(opened.store).start('app');
  const beat = setInterval(() => uptime.beat(), UPTIME_BEAT_MS);
  beat.unref();
  const settings = observeSettings(opened.settings);
  const local = { ...opened, settings: settings.service };
  // The shell owns the executor (sleep, quit and updates drive it); the bridge reads it through a port.
  const executor = new ExecutorHost<Executor>(log);
  // Made before the bridge: uploads it resumes at start-up are in progress like any other.
  const uploads = new UploadTracker(log);
  const desktop = createDesktopBridge({
    dataDir: o.dataDir,
    version: app.getVersion(),
    startSandbox: o.startSandbox,
    local,
    openExternal: (url) => shell.openExternal(url),
    ports: () => ({ executor: executorPortFor(() => executor.current()) }),
    // Changing what Postdesk runs is confirmed in main's own dialog; files come as grants of its own.
    confirm: dialogConfirm(dialog, window),
    picker: dialogPicker(dialog, window),
    saver: dialogSaver(dialog, window),
    commandLine: commandLinePort(app, process),
    // The update service is made by the shell after this bridge: read it late.
    updates: updatesPortFor(
      () => o.shell()?.updates ?? null,
      () => disabledUpdateState(settings.source.get().updateChannel, app.getVersion()),
    ),
    log,
    logFile: log.file,
    trackUploads: (name, work) => uploads.track(name, work),
  });
  const gate = registerIpcHandlers({
    dispatcher: trackUploads(desktop.bridge.dispatcher, uploads),
    window,
    isTrustedUrl: (url) => isRendererUrl(url, o.devServerUrl),
    grants: desktop.bridge.grants,
  });
  const following = followConnection(o, executor, desktop, local);
  const connection = new SessionConnection(desktop.session, log);
  void connection.refresh();

  // In order: stop listening first, then the executor and the session, the store last.
  o.closers.push(
    () => {
      clearInterval(beat);
      uptime.stop();
    },
    () => gate.dispose(),
    ...following.listening,
    () => connection.dispose(),
    ...following.forwarding,
    () => executor.dispose(),
    () => desktop.close(),
    () => opened.store.close(),
  );

  const services: ShellServices = {
    executor,
    uploads,
    connection,
    // The core polls for failed deliveries (also sent to the window as posts:didFailDelivery).
    deliveries: deliveryEventsOf(desktop.bridge.deliveries),
    upcoming: () => {
      const now = new Date();
      return upcomingOccurrences(executor.current()?.automations() ?? [], now, {
        limit: 500,
        until: new Date(now.getTime() + QUIT_HORIZON_MS),
      });
    },
    inbox: inboxEventsOf(desktop.bridge.inbox, desktop.bridge.proposals),
    settings: settings.source,
    loginItem: loginItemOf(log),
    updater: app.isPackaged ? loadAutoUpdater() : null,
  };
  return { desktop, executor, services };
}
