import type { CommandLinePort } from '../../core/bridge/command-line';
import { createThumbnails } from '../../host/thumbnails';
import { shell } from 'electron';
import { openLocal } from '../../core/services';
import type { StartSandboxFn } from '../../core/sandbox-link';
import type { Store } from '../../core/store/store';
import { assembleBridge, type AssembledBridge } from '../../core/bridge/assemble';
import { desktopPreviewUrl } from '../../host/media-url';
import { createOfflineLauncher } from '../../host/offline';
import type { BridgeSession } from '../../core/bridge/host-ports';
import { createBridgeSession } from '../../host/session';
import type { BulkPort, ExecutorPort, FilePicker, UpdatesPort } from '../../core/bridge/ports';
import type { FileSaver } from '../../core/bridge/export-port';
import type { ConfirmPort } from '../../core/bridge/confirm';
import { createBridgeEvents } from '../../core/bridge/events';
import { createExecutorHost, type ExecutorHost } from '../../core/bridge/executor-port';
import { resolveApiKey } from '../../core/secrets/secret-store';
import { silentLogger, type Logger } from '../../core/common/logger';
import { makeTempDirSync, removePathSync } from '../../core/files';

type Env = Readonly<Record<string, string | undefined>>;

export interface DesktopBridgeOptions {
  /** The app's userData directory. */
  readonly dataDir: string;
  readonly version: string;
  /** How "Try offline" starts the sandbox in this process (the app passes src-sandbox's). */
  readonly startSandbox: StartSandboxFn;
  readonly env?: Env;
  /** The store, keychain and settings the rest of the app already opened; opened here otherwise. */
  readonly local?: ReturnType<typeof openLocal>;
  readonly openExternal?: (url: string) => Promise<void>;
  /** Modules on the same store and session, wired in when present. */
  readonly ports?: (ctx: { store: Store; session: BridgeSession }) => {
    bulk?: BulkPort;
    executor?: ExecutorPort;
  };
  /**
   * Run the embedded executor here, following the session (a new one after each connect). Leave false
   * when the shell runs its own executor and passes it through `ports` (`executorPortFor`).
   */
  readonly embeddedExecutor?: boolean;
  /** The native dialog that confirms a change to what Postdesk runs (`dialogConfirm`). */
  readonly confirm?: ConfirmPort;
  /** The native open dialog behind `files:pick` (`dialogPicker`). */
  readonly picker?: FilePicker;
  /** The native save dialog behind `exports:run` (`dialogSaver`). */
  readonly saver?: FileSaver;
  /** The `postdesk` launcher Settings installs (`commandLine:*`). */
  readonly commandLine?: CommandLinePort;
  /** The shell's updater behind the `updates` channels (`updatesPortFor`). */
  readonly updates?: UpdatesPort;
  readonly log?: Logger;
  /** The log file Settings shows (the app's rotating log). */
  readonly logFile?: string | null;
  /** Uploads resumed at start-up run through this, so quitting and updating wait for them. */
  readonly trackUploads?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

export interface DesktopBridge {
  readonly bridge: AssembledBridge;
  readonly session: BridgeSession;
  /** The embedded executor's host, with `embeddedExecutor`. */
  readonly executor: ExecutorHost | null;
  close(): Promise<void>;
}

/**
 * The bridge of the desktop app. Hand `bridge.dispatcher` to `registerIpcHandlers` and `bridge.media`
 * to `createMainWindow`; emit app events (deep links, notices) on `bridge.events`.
 */
export function createDesktopBridge(o: DesktopBridgeOptions): DesktopBridge {
  const ownsLocal = !o.local;
  const log = o.log ?? silentLogger;
  const local = o.local ?? openLocal(o.dataDir);
  const offline = createOfflineLauncher(o.dataDir, o.startSandbox);
  const session = createBridgeSession({
    secrets: local.secrets,
    settings: local.settings,
    store: local.store,
    env: o.env ?? process.env,
    offline,
    resume: true,
    userAgent: `postdesk-desktop/${o.version}`,
    log,
    logFile: o.logFile ?? null,
  });
  const extra = o.ports?.({ store: local.store, session }) ?? {};
  const events = createBridgeEvents(log);
  const env = o.env ?? process.env;
  const executor =
    !extra.executor && o.embeddedExecutor
      ? createExecutorHost({
          session,
          store: local.store,
          settings: local.settings,
          dataDir: o.dataDir,
          events,
          secrets: async () => {
            const key = await resolveApiKey(local.secrets, env);
            return key ? [key] : [];
          },
          log,
        })
      : null;
  const stagingDir = makeTempDirSync('postdesk-staging-');
  const bridge = assembleBridge({
    events,
    host: 'electron',
    version: o.version,
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    thumbnails: createThumbnails(),
    stagingDir,
    bulk: extra.bulk,
    executor: extra.executor ?? executor?.port,
    openExternal: o.openExternal ?? ((url) => shell.openExternal(url)),
    updates: o.updates,
    confirm: o.confirm,
    picker: o.picker,
    saver: o.saver,
    commandLine: o.commandLine,
    log,
    ...(o.trackUploads ? { trackUploads: o.trackUploads } : {}),
  });
  return {
    bridge,
    session,
    executor,
    async close() {
      bridge.close();
      await executor?.close();
      await session.close();
      await offline.close();
      if (ownsLocal) local.store.close();
      removePathSync(stagingDir, { recursive: true });
    },
  };
}
