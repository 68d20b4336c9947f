import { createApiClient, type ApiClient, type ApiClientOptions } from '../core/api/client';
import { registerSecret } from '../core/api/errors';
import { errorText } from '../core/common/error-text';
import { silentLogger, type Logger } from '../core/common/logger';
import type { SettingsService } from '../core/config/settings';
import { API_KEY_SECRET, apiKeyFromEnv, resolveApiKey, type SecretStore } from '../core/secrets/secret-store';
import type { ConnectionStatus } from '../../src-shared/ipc/connection';
import { BridgeFault, notConnected, toBridgeError, unavailable } from '../core/bridge/bridge-fault';
import { toSettingsPatch, toSettingsView } from '../../src-shared/ipc/settings';
import {
  moveProxyPasswordToKeychain,
  readProxyPassword,
  saveProxyUrl,
  splitProxyPassword,
} from '../core/config/proxy';
import type { Settings } from '../../src-shared/settings';
import type { ConnectionPort, SecretsPort, SettingsPort } from '../core/bridge/ports';
import type { BridgeSession, OfflineService } from '../core/bridge/host-ports';
import type { Store } from '../core/store/store';
import {
  envKeyAddress,
  envKeyMayGoTo,
  markPageChosenAddress,
  pageChoseAddress,
  sameAddress,
} from '../core/config/destination';

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionOptions {
  readonly secrets: SecretStore;
  readonly settings: SettingsService;
  readonly env?: Env;
  /**
   * "Try offline": starts (or reuses) the embedded sandbox. Absent: offline is unavailable. Its `link`, when it
   * has one, names the sandbox main started: connecting to that address by hand needs no confirmation.
   */
  readonly offline?: (() => Promise<OfflineService>) & {
    readonly link?: () => { readonly url: string } | null;
  };
  /** Connect at start from the saved base URL and the stored key (the desktop app does). */
  readonly resume?: boolean;
  readonly createClient?: (o: ApiClientOptions) => ApiClient;
  readonly userAgent?: string;
  /** Where keychain failures (read as "no key") and other failures ridden out are reported. */
  readonly log?: Logger;
  /** The host's log file, shown read-only in Settings; null where the host keeps none. */
  readonly logFile?: string | null;
  /**
   * Where the saved address remembers that a page chose it, so that no later process (the CLI) pairs it with the
   * environment's key (config/destination.ts). Absent: not remembered past this process.
   */
  readonly store?: Pick<Store, 'settings'>;
}

interface Current {
  readonly client: ApiClient;
  readonly offline: boolean;
  /** Whether this session built the client (and so closes it). */
  readonly owned: boolean;
  /** The offline sandbox's key (the service's comes from the keychain at each use). */
  readonly offlineKey?: string | null;
}

/** What Connect shows later about a failed attempt: the same words the failed call answered. */
const messageOf = (e: unknown): string => toBridgeError(e).message;

/**
 * The key check at Connect is a person waiting on a form: one quick retry and a short connect timeout, so a
 * wrong address is said in a few seconds rather than after the full backoff every other call gets.
 */
const PROBE: Pick<ApiClientOptions, 'retry' | 'timeouts'> = {
  retry: { retries: 1, minTimeoutMs: 150, maxTimeoutMs: 500 },
  timeouts: { connectMs: 4_000, headersMs: 20_000 },
};

// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the current connection and its listeners); each method is short and named
export function createBridgeSession(opts: SessionOptions): BridgeSession {
  const env = opts.env ?? process.env;
  const log = opts.log ?? silentLogger;
  const local = { secrets: opts.secrets, settings: opts.settings, log };
  const build = opts.createClient ?? createApiClient;
  const listeners = new Set<(c: ApiClient | null) => void>();
  let current: Current | null = null;
  let lastError: string | null = null;
  /** The embedded sandbox's address, once "Try offline" started it. */
  let offlineUrl: string | null = null;

  // The environment's key goes only to the address it was configured with, never to one a page chose
  // (config/destination.ts); every other address gets the keychain's key, the one typed into Connect.
  const savedAtStart = opts.settings.get().baseUrl;
  const envAddress = envKeyAddress(
    env,
    savedAtStart,
    opts.store ? pageChoseAddress(opts.store, savedAtStart) : false,
  );
  const keyFor = (baseUrl: string) => async (): Promise<string | null> =>
    envKeyMayGoTo(baseUrl, envAddress) ? resolveApiKey(opts.secrets, env) : opts.secrets.get(API_KEY_SECRET);
  /** After a page saved `baseUrl`: remembered as its choice, unless it is the configured address itself. */
  const savedByPage = (baseUrl: string | null): void => {
    if (opts.store) markPageChosenAddress(opts.store, sameAddress(baseUrl, envAddress) ? null : baseUrl);
  };
  const clientFor = (
    baseUrl: string,
    apiKey: ApiClientOptions['apiKey'],
    extra: Pick<ApiClientOptions, 'retry' | 'timeouts'> = {},
  ): ApiClient => {
    const s = opts.settings.get();
    return build({
      ...extra,
      baseUrl,
      aliasUrl: s.aliasUrl,
      proxyUrl: s.proxyUrl,
      proxyPassword: () => readProxyPassword(opts.secrets, log),
      apiKey,
      log,
      ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
    });
  };

  const replace = async (next: Current | null) => {
    const old = current;
    current = next;
    if (old?.owned && old.client !== next?.client) {
      await old.client
        .close()
        .catch((error: unknown) =>
          log.warn('closing the previous connection failed', { error: errorText(error) }),
        );
    }
    for (const l of [...listeners]) l(next?.client ?? null);
  };

  /** Whether a key may be sent to `baseUrl` (any address, when null). */
  const hasKey = async (baseUrl: string | null): Promise<boolean> => {
    try {
      if ((baseUrl === null || envKeyMayGoTo(baseUrl, envAddress)) && apiKeyFromEnv(env)) return true;
    } catch (error) {
      log.warn('the API key file cannot be used; no key until it is fixed', { error: errorText(error) });
      return false;
    }
    try {
      return await opts.secrets.has(API_KEY_SECRET);
    } catch (error) {
      log.warn('the keychain could not be read; no key is available', { error: errorText(error) });
      return false;
    }
  };

  const status = async (): Promise<ConnectionStatus> => {
    const base_url = current ? current.client.baseUrl : opts.settings.get().baseUrl;
    const has_key = await hasKey(base_url);
    const connected = current !== null && (current.offline || has_key);
    return {
      state: connected ? 'connected' : lastError ? 'error' : 'disconnected',
      base_url,
      offline: current?.offline ?? false,
      has_key,
      message: connected ? null : lastError,
    };
  };

  if (opts.resume) {
    // The user's own keychain is in use: a password an older version kept in the setting moves there.
    void moveProxyPasswordToKeychain(local);
    const baseUrl = env.POSTDESK_BASE_URL ?? opts.settings.get().baseUrl;
    if (baseUrl) current = { client: clientFor(baseUrl, keyFor(baseUrl)), offline: false, owned: true };
  }

  const connection: ConnectionPort = {
    status,
    async connect(baseUrl, apiKey) {
      registerSecret(apiKey);
      const probe = clientFor(baseUrl, apiKey, PROBE);
      try {
        await probe.listAccounts();
      } catch (e) {
        await probe.close().catch(() => undefined);
        lastError = messageOf(e);
        throw e;
      }
      try {
        await opts.secrets.set(API_KEY_SECRET, apiKey);
      } catch (e) {
        await probe.close().catch(() => undefined);
        lastError = messageOf(e);
        throw new BridgeFault('unavailable', `The key works but could not be stored: ${lastError}`);
      }
      opts.settings.update({ baseUrl });
      savedByPage(baseUrl);
      await probe.close().catch(() => undefined);
      lastError = null;
      // Later calls read the key from the store, so `secrets:set` and `secrets:clear` take effect at once.
      await replace({ client: clientFor(baseUrl, keyFor(baseUrl)), offline: false, owned: true });
      return status();
    },
    async useOffline() {
      if (!opts.offline) throw unavailable('Offline mode');
      let svc: OfflineService;
      try {
        svc = await opts.offline();
        await svc.client.listAccounts();
      } catch (e) {
        lastError = messageOf(e);
        throw e;
      }
      lastError = null;
      offlineUrl = svc.baseUrl;
      await replace({ client: svc.client, offline: true, owned: false, offlineKey: svc.apiKey ?? null });
      return status();
    },
    async disconnect() {
      lastError = null;
      await replace(null);
      return status();
    },
    async isKnownAddress(baseUrl) {
      const known = [
        current?.client.baseUrl,
        opts.settings.get().baseUrl,
        env.POSTDESK_BASE_URL,
        opts.offline?.link?.()?.url,
        offlineUrl,
      ];
      return known.some((k) => sameAddress(baseUrl, k));
    },
    async api() {
      if (!current) throw notConnected();
      if (!current.offline && !(await hasKey(current.client.baseUrl))) throw notConnected();
      return current.client;
    },
  };

  const secrets: SecretsPort = {
    async set(apiKey) {
      registerSecret(apiKey);
      await opts.secrets.set(API_KEY_SECRET, apiKey);
      const baseUrl = opts.settings.get().baseUrl;
      if (!current && baseUrl)
        await replace({ client: clientFor(baseUrl, keyFor(baseUrl)), offline: false, owned: true });
    },
    has: async () =>
      hasKey(current && !current.offline ? current.client.baseUrl : opts.settings.get().baseUrl),
    async clear() {
      try {
        await opts.secrets.delete(API_KEY_SECRET);
      } catch (error) {
        // No keychain: nothing can be stored there either, so no key remains.
        log.warn('the keychain could not be asked to forget the API key', { error: errorText(error) });
      }
      if (current && !current.offline) await replace(null);
    },
  };

  // The page never holds the proxy password, even one an older version left in the setting.
  const view = (s: Readonly<Settings>) =>
    toSettingsView(
      { ...s, proxyUrl: s.proxyUrl && splitProxyPassword(s.proxyUrl).url },
      { log_file: opts.logFile ?? null },
    );
  const settings: SettingsPort = {
    get: async () => view(opts.settings.get()),
    async update(patch) {
      const before = opts.settings.get();
      const { proxyUrl, ...rest } = toSettingsPatch(patch);
      // A password typed into the proxy address goes to the keychain, not the settings.
      if (proxyUrl !== undefined) await saveProxyUrl(local, proxyUrl);
      const after = opts.settings.update(rest);
      if (rest.baseUrl !== undefined && !sameAddress(before.baseUrl, after.baseUrl))
        savedByPage(after.baseUrl);
      const moved =
        before.baseUrl !== after.baseUrl ||
        before.aliasUrl !== after.aliasUrl ||
        before.proxyUrl !== after.proxyUrl;
      if (moved && current && !current.offline) {
        await replace(
          after.baseUrl
            ? { client: clientFor(after.baseUrl, keyFor(after.baseUrl)), offline: false, owned: true }
            : null,
        );
      }
      return view(after);
    },
  };

  return {
    connection,
    secrets,
    settings,
    current: () => current?.client ?? null,
    isOffline: () => current?.offline ?? false,
    async mcpAccess() {
      if (!current) return null;
      const apiKey = current.offline ? (current.offlineKey ?? null) : await keyFor(current.client.baseUrl)();
      return apiKey ? { baseUrl: current.client.baseUrl, apiKey, offline: current.offline } : null;
    },
    onDidSwitch(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      await replace(null);
      listeners.clear();
    },
  };
}
