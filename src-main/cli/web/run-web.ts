import { join } from 'node:path';
import { createThumbnails } from '../../host/thumbnails';
import { fileURLToPath } from 'node:url';
import { openLocal } from '../../core/services';
import type { StartSandboxFn } from '../../core/sandbox-link';
import { assembleBridge, type AssembledBridge } from '../../core/bridge/assemble';
import type { BridgeSession } from '../../core/bridge/host-ports';
import { createBridgeSession } from '../../host/session';
import { errorText } from '../../core/common/error-text';
import { silentLogger, type Logger } from '../../core/common/logger';
import { createOfflineLauncher } from '../../host/offline';
import { MemorySecretStore } from '../../host/memory-secret-store';
import { createBridgeEvents } from '../../core/bridge/events';
import { createExecutorHost } from '../../core/bridge/executor-port';
import { resolveApiKey, type SecretStore } from '../../core/secrets/secret-store';
import type { BulkPort, ExecutorPort } from '../../core/bridge/ports';
import type { Store } from '../../core/store/store';
import { createLaunchSecret, startWebHost, webPreviewUrl, type WebHost } from './web-host';
import { openInBrowser } from './open-browser';
import { refuseAll, type ConfirmPort } from '../../core/bridge/confirm';
import { NO_TERMINAL } from './terminal-confirm';
import { createDownloadShelf } from '../../host/downloads';
import { makeTempDir, removePath } from '../../core/files';

type Env = Readonly<Record<string, string | undefined>>;

/** The renderer build `npm run build:web` writes. */
export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../../out/web/', import.meta.url));

export interface WebOptions {
  /** Start the embedded sandbox now; the data directory and keys then live only as long as this process. */
  readonly sandbox: boolean;
  readonly port: number;
  /** Try to open the page in the browser. */
  readonly open: boolean;
  /**
   * Run the embedded executor on whatever the page connects to. Default: with `sandbox` only, so a
   * host on the user's real service does not run a second executor beside the desktop app's.
   */
  readonly executor?: boolean;
  /** The user's data directory; with `sandbox` and no `dataDir`, a temporary one. */
  readonly dataDir?: string | undefined;
  readonly env: Env;
  readonly version: string;
  readonly startSandbox: StartSandboxFn;
  readonly staticDir?: string;
  readonly print: (line: string) => void;
  /** Where what the host catches and rides out is reported (the CLI's stderr with --verbose). */
  readonly log?: Logger;
  /**
   * Asks in the launching terminal before a page's change to what Postdesk runs (`terminalConfirm`);
   * absent, such changes are refused (they are made with `postdesk config set`).
   */
  readonly confirm?: ConfirmPort;
  /** The keychain to use instead of the OS one (tests: the OS keychain is the edge). */
  readonly secrets?: SecretStore;
  /** Modules built by others on the same store and session, wired in when present. */
  readonly ports?: (ctx: { store: Store; session: BridgeSession }) => {
    bulk?: BulkPort;
    executor?: ExecutorPort;
  };
}

export interface RunningWeb {
  readonly host: WebHost;
  readonly bridge: AssembledBridge;
  readonly session: BridgeSession;
  /** The sandbox's address, with `sandbox`. */
  readonly sandboxUrl: string | null;
  /** Where the page's dropped files are kept until the host closes (private: 0700, files 0600). */
  readonly stagingDir: string;
  close(): Promise<void>;
}

/**
 * How long a link's code stays good unused, the browser's and the terminal's alike: the browser's command
 * line (and so its code) can be read by every local user, and the terminal's link stays on screen, in the
 * scrollback and in a pasted log long after. A link opened later is refused, and the terminal prints a
 * fresh one.
 */
export const LINK_TTL_MS = 2 * 60_000;

/**
 * Builds the core side, the bridge and the host; prints a one-time link and opens another one. The
 * session secret itself is never printed nor passed to the browser's opener (docs/bridge.md).
 */
// eslint-disable-next-line max-lines-per-function -- the web host's start in order (session, sandbox, executor, bridge, server, link); each part is built by its own module
export async function startWeb(o: WebOptions): Promise<RunningWeb> {
  const cleanups: (() => Promise<void>)[] = [];
  const log = o.log ?? silentLogger;
  const closeAll = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      await c().catch((error: unknown) => log.warn('a step of closing failed', { error: errorText(error) }));
    }
  };
  try {
    let dataDir = o.dataDir;
    if (!dataDir) {
      if (!o.sandbox) throw new Error('startWeb: a data directory is needed without --sandbox');
      const tmp = await makeTempDir('postdesk-web-');
      cleanups.push(() => removePath(tmp, { recursive: true }));
      dataDir = tmp;
    }
    const stagingDir = await makeTempDir('postdesk-web-drops-');
    cleanups.push(() => removePath(stagingDir, { recursive: true }));

    // With --sandbox nothing touches the OS keychain: a demo session keeps its keys in memory.
    const local = openLocal(dataDir, o.secrets ?? (o.sandbox ? new MemorySecretStore() : undefined));
    cleanups.push(async () => local.store.close());
    const offline = createOfflineLauncher(dataDir, o.startSandbox);
    cleanups.push(() => offline.close());
    // With --sandbox the saved service of the user's own config is not resumed: the page starts at Connect.
    const env: Env = o.sandbox
      ? {
          ...o.env,
          POSTDESK_API_KEY: undefined,
          POSTDESK_API_KEY_FILE: undefined,
          POSTDESK_BASE_URL: undefined,
        }
      : o.env;
    const session = createBridgeSession({
      secrets: local.secrets,
      settings: local.settings,
      store: local.store,
      env,
      offline,
      resume: !o.sandbox,
      userAgent: `postdesk-web/${o.version}`,
      log,
    });
    cleanups.push(() => session.close());

    let sandboxUrl: string | null = null;
    if (o.sandbox) {
      const svc = await offline();
      sandboxUrl = svc.baseUrl;
    }

    const secret = createLaunchSecret();
    const events = createBridgeEvents(log);
    const downloads = createDownloadShelf({
      dir: join(stagingDir, 'downloads'),
      url: (path) => `${path}?token=${encodeURIComponent(secret)}`,
    });
    const extra = o.ports?.({ store: local.store, session }) ?? {};
    let executor = extra.executor;
    if (!executor && (o.executor ?? o.sandbox)) {
      // The page's automations screen drives a real executor, following whatever the page connects to.
      const host = createExecutorHost({
        session,
        store: local.store,
        settings: local.settings,
        dataDir,
        events,
        secrets: async () => {
          const key = await resolveApiKey(local.secrets, env);
          return key ? [key] : [];
        },
        log,
      });
      cleanups.push(() => host.close());
      executor = host.port;
    }
    const bridge = assembleBridge({
      events,
      host: 'web',
      version: o.version,
      session,
      store: local.store,
      previewUrl: webPreviewUrl(secret),
      thumbnails: createThumbnails(),
      stagingDir,
      bulk: extra.bulk,
      executor,
      openExternal: async (url) => void openInBrowser(url, o.env),
      confirm: o.confirm ?? refuseAll(NO_TERMINAL),
      downloads,
      log,
    });
    // Runs before the executor and the session close: the watcher and outbox timers stop first.
    cleanups.push(async () => bridge.close());
    const host = await startWebHost({
      dispatcher: bridge.dispatcher,
      media: bridge.media,
      grants: bridge.grants,
      staticDir: o.staticDir ?? DEFAULT_STATIC_DIR,
      stagingDir,
      downloads,
      secret,
      port: o.port,
      log,
    });
    cleanups.push(() => host.close());

    if (sandboxUrl) {
      const key = offline.link()?.apiKey;
      o.print(`sandbox listening on ${sandboxUrl}`);
      // The sandbox's demo key is a published constant, not a credential; Connect accepts it.
      if (key) o.print(`api key: ${key}`);
    }
    o.print(`postdesk web listening on ${host.origin}`);
    // The terminal's link expires like the browser's; once a page has used it, or opening it came too
    // late, the next one is printed.
    const ttlMs = LINK_TTL_MS;
    const minutes = Math.max(1, Math.round(ttlMs / 60_000));
    let printed = host.newLink({ ttlMs });
    o.print(`open: ${printed}`);
    o.print(`(the link opens one page, within ${minutes} minute${minutes === 1 ? '' : 's'})`);
    const unused = host.onDidUseLink((link) => {
      if (link !== printed) return;
      printed = host.newLink({ ttlMs });
      o.print('(that link is used now; each link opens one page)');
      o.print(`open: ${printed}`);
    });
    const unrefused = host.onDidRefuseLink(({ expired }) => {
      if (expired !== null && expired === printed) {
        printed = host.newLink({ ttlMs });
        o.print(
          `(that link had expired; a link opens a page within ${minutes} minute${minutes === 1 ? '' : 's'})`,
        );
        o.print(`open: ${printed}`);
        return;
      }
      o.print('(a link that was already used, or had expired, was refused)');
    });
    cleanups.push(async () => {
      unused();
      unrefused();
    });
    if (o.open && openInBrowser(host.newLink({ ttlMs }), o.env)) {
      o.print('(opened in your browser)');
    }

    return { host, bridge, session, sandboxUrl, stagingDir, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
