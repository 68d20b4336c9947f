/**
 * Puts the shell together: single instance, deep links, window, tray, notifications, sleep handling,
 * start at login, updates and the quit drain. Everything it needs comes in through `ShellDeps`, so
 * `main.ts` (with `desktop-core.ts`) hands it the real Electron objects and core services and a test hands it fakes.
 */
import { join } from 'node:path';
import type { App, BrowserWindow, PowerMonitor } from 'electron';
import type {
  ConnectionSource,
  DeliveryEvents,
  ExecutorControl,
  InboxEvents,
  Logger,
  ShellSettingsSource,
  UploadQueueControl,
} from './capabilities';
import {
  DeepLinkRouter,
  INBOX_ALL,
  deepLinkFor,
  registerDeepLinks,
  type DeepLinkRoute,
  type ProtocolRegistration,
} from './deep-links';
import { DisposableStore, listen, type Disposable } from '../core/common/events';
import { QuitCoordinator } from './lifecycle';
import type { QuitQuestion } from '../core/gaps/decisions';
import type { Occurrence } from '../core/gaps/upcoming';
import { wasStartedAtLogin, type LoginItemService } from './login-item';
import { NotificationService } from './notifications';
import { PowerHandler } from './power';
import { acquireSingleInstance } from './single-instance';
import { TrayController, loadTrayImages, type TrayInputs } from './tray';
import { UpdateService, activityOf, type UpdaterEngine } from './updater';
import { MainWindowHost, type MainWindowFactory } from './window-host';

export type ShellDeps = Readonly<{
  app: App;
  powerMonitor: Pick<PowerMonitor, 'on' | 'removeListener'>;
  argv: readonly string[];
  platform: NodeJS.Platform;
  protocol: ProtocolRegistration;
  /** Where `tray/tray-<state>.png` live (resources/ in development, process.resourcesPath packaged). */
  resourcesDir: string;
  log: Logger;
  /** Shows the folder of the app's log file (the tray's "Open logs folder"). */
  openLogsFolder?: () => void;
  createWindow: MainWindowFactory;
  /** Shows a route in the window (the UI's router; the bridge carries it). */
  navigate: (win: BrowserWindow, route: DeepLinkRoute) => void;
  /** The rest of the services exist only after `ready` (the core opens its store then). */
  services: () => Promise<ShellServices>;
  /** Asks whether to quit while automations are due soon (main's own dialog); absent: never asked. */
  askToQuit?: (question: QuitQuestion) => Promise<boolean>;
  now?: () => Date;
  /** Closes the core (store, session) once the work in progress has ended, before the process exits. */
  closeCore?: () => Promise<void>;
  graceMs?: number;
}>;

export type ShellServices = Readonly<{
  executor: ExecutorControl;
  uploads: UploadQueueControl;
  connection: ConnectionSource;
  deliveries?: DeliveryEvents;
  /** The next occurrences of the automations this computer runs (quit and sleep warn about them). */
  upcoming?: () => readonly Occurrence[];
  /** Drafts of runs waiting for a person: counted in the tray, one notice per run. */
  inbox?: InboxEvents;
  settings: ShellSettingsSource;
  loginItem: LoginItemService;
  /** electron-updater's updater; null where updates do not apply (development runs). */
  updater: UpdaterEngine | null;
}>;

export interface Shell extends Disposable {
  readonly windows: MainWindowHost;
  readonly router: DeepLinkRouter;
  readonly quit: QuitCoordinator;
  readonly tray: TrayController;
  readonly notifications: NotificationService;
  readonly updates: UpdateService | null;
}

/**
 * Returns null when another instance is running: this process then quits and starts nothing.
 * Everything that must be in place before `ready` (lock, `open-url`, `before-quit`) is set up first.
 */
// eslint-disable-next-line max-lines-per-function -- the shell's wiring in the order Electron needs it (services, windows, tray, notifications, updates, login item); each part is built by its own module
export async function startShell(deps: ShellDeps): Promise<Shell | null> {
  const { app, log } = deps;
  const store = new DisposableStore();
  const router = new DeepLinkRouter(log);
  let quit: QuitCoordinator | null = null;
  const windows = store.add(new MainWindowHost(deps.createWindow, () => quit?.isQuitting ?? false));

  // A second launch can arrive while we start: the window can only be made once the core is up.
  let ready = false;
  let revealWhenReady = false;
  const reveal = (): void => {
    if (ready) windows.reveal();
    else revealWhenReady = true;
  };
  const lock = acquireSingleInstance(app, {
    reveal,
    openArgv: (argv) => router.openFromArgv(argv, 'second-instance'),
  });
  if (!lock) return null;
  store.add(lock);
  store.add(registerDeepLinks(app, router, deps.protocol, log));

  await app.whenReady();
  const services = await deps.services();
  const { executor, uploads, connection, settings } = services;

  const late = new DisposableStore();
  // Made below; a quit hands the exit to it when an update is downloaded (it installs at quit).
  let updatesRef: UpdateService | null = null;
  quit = new QuitCoordinator({
    app,
    executor,
    uploads,
    log,
    graceMs: deps.graceMs,
    ...(services.upcoming ? { upcoming: services.upcoming } : {}),
    ...(deps.askToQuit ? { askToQuit: deps.askToQuit } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    // Once drained nothing may start again: the tray and the timers go before the process exits.
    onDrained: () => late.dispose(),
    beforeExit: deps.closeCore,
    takeOverExit: () => updatesRef?.installOnQuit() ?? false,
  });
  store.add(quit.install());
  const quitting = quit;

  store.add(
    router.attach({
      reveal: () => windows.reveal(),
      navigate: (route) => deps.navigate(windows.reveal(), route),
    }),
  );

  const notifications = late.add(new NotificationService({ router, reveal: () => windows.reveal(), log }));
  late.add(notifications.bind({ runs: executor, deliveries: services.deliveries, inbox: services.inbox }));
  late.add(windows.onDidReveal(() => notifications.markSeen()));

  const activity = activityOf(executor, uploads);

  // The update service outlives the drain: it still has to call quitAndInstall and watch for its failure.
  const updates = services.updater
    ? store.add(
        new UpdateService({
          engine: services.updater,
          activity,
          executor,
          channel: settings.get().updateChannel,
          currentVersion: app.getVersion(),
          log,
          prepareToInstall: async () => {
            await quitting.drain('update');
            // The new version starts before this one has fully exited: let it take the lock.
            app.releaseSingleInstanceLock();
          },
          onInstallFailed: () => {
            app.relaunch();
            app.quit();
          },
        }),
      )
    : null;
  updatesRef = updates;

  const inputs = (): TrayInputs => ({
    connection: connection.current(),
    executor: executor.state(),
    executorError: executor.lastError(),
    activeRuns: executor.activeRuns(),
    activeUploads: uploads.activeUploads().length,
    unseenFailures: notifications.unseen(),
    inboxDrafts: services.inbox?.count() ?? 0,
    update: updates
      ? { phase: updates.state().phase, version: updates.state().availableVersion }
      : { phase: 'disabled', version: null },
  });
  const tray = late.add(
    new TrayController({
      images: loadTrayImages(join(deps.resourcesDir, 'tray'), deps.platform),
      inputs,
      actions: {
        open: () => windows.reveal(),
        pause: () => executor.pause(),
        resume: () => executor.resume(),
        'check-updates': () => void updates?.checkNow(),
        'restart-to-update': () => updates?.restartNow(),
        'open-logs': () => deps.openLogsFolder?.(),
        'open-inbox': () => void router.open(deepLinkFor({ kind: 'inbox', id: INBOX_ALL }), 'tray'),
        quit: () => app.quit(),
      },
    }),
  );
  const refresh = (): void => tray.refresh();
  late.add(activity.onDidChange(refresh));
  late.add(connection.onDidChange(refresh));
  late.add(notifications.onDidChangeUnseen(refresh));
  if (services.inbox) late.add(services.inbox.onDidChangeCount(refresh));
  if (updates) late.add(updates.onDidChangeUpdateState(refresh));

  late.add(
    new PowerHandler({
      monitor: deps.powerMonitor,
      executor,
      log,
      onShutdown: () => quitting.quitNow(),
      ...(services.upcoming ? { upcoming: services.upcoming } : {}),
      notify: (n) => notifications.dueSoon(n),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  );
  late.add(services.loginItem.bind(settings));
  late.add(
    settings.onDidChange((s) => {
      updates?.setChannel(s.updateChannel);
    }),
  );
  if (updates) late.add(updates.start());
  store.add(late);

  // Started at login: stay in the tray. A link on the command line opens the window anyway.
  // macOS: a click on the Dock icon while the window is hidden.
  store.add(listen(app, 'activate', () => windows.reveal()));

  ready = true;
  const linked = router.openFromArgv(deps.argv, 'argv');
  if (!linked && (revealWhenReady || !wasStartedAtLogin(deps.argv, app, deps.platform))) windows.reveal();

  return {
    windows,
    router,
    quit: quitting,
    tray,
    notifications,
    updates,
    dispose: () => store.dispose(),
  };
}
