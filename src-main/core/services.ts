import { createApiClient, type ApiClient } from './api/client';
import type { RetryOptions } from './api/transport';
import { errorText } from './common/error-text';
import { silentLogger, type Logger } from './common/logger';
import { readSettings, updateSettings, type SettingsService } from './config/settings';
import { moveProxyPasswordToKeychain, readProxyPassword } from './config/proxy';
import { createOutbox, type Outbox, type OutboxOptions } from './outbox/outbox';
import { securePrivateDataDir, storeFile } from './paths';
import { connectSandbox, type SandboxLink, type StartSandboxFn } from './sandbox-link';
import { envKeyAddress, envKeyMayGoTo, pageChoseAddress } from './config/destination';
import {
  API_KEY_SECRET,
  KeychainSecretStore,
  resolveApiKeyWithSource,
  type ApiKeySource,
  type SecretStore,
} from './secrets/secret-store';
import { openStore, type Store } from './store/store';

type Env = Readonly<Record<string, string | undefined>>;

export interface CoreOptions {
  dataDir: string;
  env?: Env;
  /** Overrides the setting (the CLI's `--base-url`). */
  baseUrl?: string | null;
  /** Use the local sandbox: reuse a running one or start it with `startSandbox`. */
  sandbox?: boolean;
  startSandbox?: StartSandboxFn;
  /** Defaults to the OS keychain. */
  secrets?: SecretStore;
  retry?: RetryOptions;
  outbox?: Omit<OutboxOptions, 'scope'>;
  userAgent?: string;
  /** Where failures the core rides out (retries, keychain, background work) are reported. */
  log?: Logger;
}

export interface Core {
  readonly dataDir: string;
  readonly store: Store;
  readonly secrets: SecretStore;
  readonly client: ApiClient;
  readonly outbox: Outbox;
  readonly settings: SettingsService;
  /** Where requests go, and the sandbox when `sandbox` was asked for. */
  readonly endpoint: {
    baseUrl: string;
    aliasUrl: string | null;
    sandbox: Omit<SandboxLink, 'close' | 'apiKey'> | null;
  };
  /** A client for the same service, proxy and retry settings, with this key (e.g. to check one before storing it). */
  withApiKey(key: string): ApiClient;
  /** Where the API key comes from right now (never the key itself). */
  apiKeySource(): Promise<ApiKeySource | 'sandbox'>;
  /**
   * The API key itself, by the same path as every call's (the sandbox's, `POSTDESK_API_KEY`, the keychain),
   * for `postdesk mcp`, which hands it to the service's MCP server as its bearer; null when there is none.
   */
  apiKey(): Promise<string | null>;
  close(): Promise<void>;
}

/** No service address is configured and none was given. */
export class ServiceNotConfiguredError extends Error {
  constructor() {
    super(
      'no service address: pass --base-url URL, save one with `postdesk config set baseUrl URL`, ' +
        'set POSTDESK_BASE_URL, or try everything offline with --sandbox',
    );
    this.name = 'ServiceNotConfiguredError';
  }
}

/** Store, secrets and settings only: for commands that never talk to the service. */
export function openLocal(
  dataDir: string,
  secrets?: SecretStore,
  env: Env = process.env,
): {
  store: Store;
  secrets: SecretStore;
  settings: SettingsService;
} {
  securePrivateDataDir(dataDir);
  const store = openStore(storeFile(dataDir));
  return {
    store,
    // POSTDESK_KEYCHAIN_SERVICE lets tests use a keychain entry of their own.
    secrets: secrets ?? new KeychainSecretStore(env.POSTDESK_KEYCHAIN_SERVICE || undefined),
    settings: { get: () => readSettings(store), update: (p) => updateSettings(store, p) },
  };
}

/** The one way the CLI, the web host and the desktop app build the core. */
export async function createCore(opts: CoreOptions): Promise<Core> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? silentLogger;
  const local = openLocal(opts.dataDir, opts.secrets, env);
  const { store, secrets, settings } = local;
  let sandbox: SandboxLink | null = null;
  try {
    const s = settings.get();
    if (opts.sandbox) {
      if (!opts.startSandbox)
        throw new Error('createCore: sandbox requested without a startSandbox function');
      sandbox = await connectSandbox(opts.dataDir, opts.startSandbox);
    }
    const baseUrl = sandbox?.url ?? opts.baseUrl ?? env.POSTDESK_BASE_URL ?? s.baseUrl;
    if (!baseUrl) throw new ServiceNotConfiguredError();
    const aliasUrl = sandbox ? null : (env.POSTDESK_ALIAS_URL ?? s.aliasUrl);
    await moveProxyPasswordToKeychain({ ...local, log });
    const savedProxy = settings.get().proxyUrl;
    const proxyUrl = savedProxy ?? env.HTTPS_PROXY ?? env.https_proxy ?? null;
    const sandboxKey = sandbox?.apiKey;
    // For scripts and tests that want a failure reported at once rather than after the backoff.
    const retriesFromEnv = Number(env.POSTDESK_HTTP_RETRIES);
    const clientOptions = {
      baseUrl,
      aliasUrl,
      proxyUrl: sandbox ? null : proxyUrl,
      // The keychain's password belongs to the saved proxy, not to one from the environment.
      ...(savedProxy ? { proxyPassword: () => readProxyPassword(secrets, log) } : {}),
      retry:
        env.POSTDESK_HTTP_RETRIES && Number.isInteger(retriesFromEnv) && retriesFromEnv >= 0
          ? { ...opts.retry, retries: retriesFromEnv }
          : opts.retry,
      userAgent: opts.userAgent,
      log,
    };
    // The environment's key goes only to the address it was configured with (config/destination.ts): an
    // address a page saved gets the keychain's key, the one typed into Connect with it.
    const envKeyOk = envKeyMayGoTo(
      baseUrl,
      envKeyAddress(env, s.baseUrl, pageChoseAddress(store, s.baseUrl)),
      Boolean(opts.baseUrl),
    );
    let warned = false;
    const keyAndSource = async (): Promise<{ key: string | null; source: ApiKeySource }> => {
      if (envKeyOk) return resolveApiKeyWithSource(secrets, env);
      if (!warned && (env.POSTDESK_API_KEY || env.POSTDESK_API_KEY_FILE)) {
        warned = true;
        log.warn(
          'the API key from the environment is not sent to the saved address, which a page chose: set POSTDESK_BASE_URL, pass --base-url, or save it with `postdesk config set baseUrl`',
        );
      }
      const stored = await secrets.get(API_KEY_SECRET);
      return stored ? { key: stored, source: 'keychain' } : { key: null, source: 'none' };
    };
    const client = createApiClient({
      ...clientOptions,
      apiKey: sandboxKey ?? (async () => (await keyAndSource()).key),
    });
    const settleFromEnv = Number(env.POSTDESK_OUTBOX_SETTLE_MS);
    const outbox = createOutbox(store, client, {
      log,
      ...opts.outbox,
      ...(Number.isFinite(settleFromEnv) && settleFromEnv >= 0 ? { settleMs: settleFromEnv } : {}),
      // The in-process sandbox gets a fresh port each time; its entries belong to "the sandbox of this data dir".
      scope: sandbox ? 'sandbox' : client.baseUrl,
    });
    return {
      dataDir: opts.dataDir,
      store,
      secrets,
      client,
      outbox,
      settings,
      endpoint: {
        baseUrl: client.baseUrl,
        aliasUrl: client.aliasUrl,
        sandbox: sandbox ? { url: sandbox.url, pid: sandbox.pid, reused: sandbox.reused } : null,
      },
      withApiKey: (key) => createApiClient({ ...clientOptions, apiKey: key }),
      async apiKeySource() {
        if (sandboxKey) return 'sandbox';
        return (await keyAndSource()).source;
      },
      async apiKey() {
        // The same pairing rule as every request: an environment key only for the address it was set up with.
        return sandboxKey ?? (await keyAndSource()).key;
      },
      async close() {
        await client
          .close()
          .catch((error: unknown) =>
            log.warn('closing the service connection failed', { error: errorText(error) }),
          );
        await sandbox?.close();
        store.close();
      },
    };
  } catch (err) {
    await sandbox?.close().catch(() => undefined);
    store.close();
    throw err;
  }
}
