import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { registerSecret } from '../api/redact';

/** Named secrets (the API key) kept outside the app's files. */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  has(name: string): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'postdesk';
export const API_KEY_SECRET = 'api-key';

const REMEDY: Record<string, string> = {
  linux:
    'install and start a Secret Service (e.g. `apt install gnome-keyring` and run it unlocked in your session; ' +
    'on a headless machine: `dbus-run-session -- bash -c \'eval "$(printf "\\n" | gnome-keyring-daemon --unlock --components=secrets)"; …\'`), ' +
    'or set POSTDESK_API_KEY',
  darwin: 'unlock the login keychain (Keychain Access), or set POSTDESK_API_KEY',
  win32: 'check that Windows Credential Manager is available for this user, or set POSTDESK_API_KEY',
};

/** No OS keychain is reachable. Postdesk never falls back to a plain file, so this names the remedy. */
export class KeychainUnavailableError extends Error {
  constructor(detail: string, platform: string = process.platform) {
    super(
      `the OS keychain is not available (${detail}); ${REMEDY[platform] ?? 'start your OS keychain service, or set POSTDESK_API_KEY'}`,
    );
    this.name = 'KeychainUnavailableError';
  }
}

function detailOf(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // The library's messages carry no secret, but keep them short and single-line.
  return msg.split('\n')[0]?.slice(0, 200) ?? 'unknown error';
}

/**
 * The OS keychain through @napi-rs/keyring (N-API, prebuilt, maintained; keytar has been archived since 2022).
 * On Linux it is pinned to the Secret Service: the library's other Linux backend (kernel keyutils) does not persist
 * across reboots and would make a missing keychain look like a missing key.
 */
export class KeychainSecretStore implements SecretStore {
  private readonly options: EntryOptions | undefined;
  constructor(
    private readonly service: string = KEYCHAIN_SERVICE,
    platform: string = process.platform,
  ) {
    this.options = platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;
  }

  private entry(name: string): AsyncEntry {
    try {
      return new AsyncEntry(this.service, name, this.options);
    } catch (err) {
      throw new KeychainUnavailableError(detailOf(err));
    }
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new KeychainUnavailableError(detailOf(err));
    }
  }

  async get(name: string): Promise<string | null> {
    const e = this.entry(name);
    const v = await this.run(() => e.getPassword());
    registerSecret(v);
    return v;
  }
  async set(name: string, value: string): Promise<void> {
    registerSecret(value);
    const e = this.entry(name);
    await this.run(() => e.setPassword(value));
  }
  async delete(name: string): Promise<void> {
    const e = this.entry(name);
    await this.run(() => e.deletePassword());
  }
  async has(name: string): Promise<boolean> {
    return (await this.get(name)) !== null;
  }
}

export type ApiKeySource = 'env' | 'keychain' | 'none';

/** The API key: `POSTDESK_API_KEY` wins (headless use), else the keychain. */
export async function resolveApiKey(
  store: SecretStore,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  return (await resolveApiKeyWithSource(store, env)).key;
}

export async function resolveApiKeyWithSource(
  store: SecretStore,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ key: string | null; source: ApiKeySource }> {
  const fromEnv = env.POSTDESK_API_KEY?.trim();
  if (fromEnv) {
    registerSecret(fromEnv);
    return { key: fromEnv, source: 'env' };
  }
  const stored = await store.get(API_KEY_SECRET);
  return stored ? { key: stored, source: 'keychain' } : { key: null, source: 'none' };
}
