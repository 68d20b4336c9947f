import type * as Keyring from '@napi-rs/keyring';
import type { AsyncEntry, EntryOptions } from '@napi-rs/keyring';
import { registerSecret } from '../api/redact';
import { errorText } from '../common/error-text';
import { readCheckedTextFileSync } from '../files';

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
    'or put the key in a private file (chmod 600) and set POSTDESK_API_KEY_FILE to its path',
  darwin:
    'unlock the login keychain (Keychain Access), or put the key in a private file (chmod 600) and set POSTDESK_API_KEY_FILE',
  win32:
    'check that Windows Credential Manager is available for this user, or set POSTDESK_API_KEY_FILE to a file holding the key',
};

/** No OS keychain is reachable. Postdesk never falls back to a plain file, so this names the remedy. */
export class KeychainUnavailableError extends Error {
  constructor(detail: string, platform: string = process.platform) {
    super(
      `the OS keychain is not available (${detail}); ${REMEDY[platform] ?? 'start your OS keychain service, or set POSTDESK_API_KEY_FILE'}`,
    );
    this.name = 'KeychainUnavailableError';
  }
}

function detailOf(err: unknown): string {
  const msg = errorText(err);
  // The library's messages carry no secret, but keep them short and single-line.
  return msg.split('\n')[0]?.slice(0, 200) ?? 'unknown error';
}

/**
 * The keychain's native module, loaded on first use: a command whose key comes from POSTDESK_API_KEY or
 * POSTDESK_API_KEY_FILE never pays for it (its load was the largest single cost of `postdesk accounts`'s start),
 * and a machine where it cannot load gets KeychainUnavailableError, not a CLI that fails to start.
 */
let keyring: Promise<typeof Keyring> | null = null;
const loadKeyring = (): Promise<typeof Keyring> =>
  (keyring ??= import('@napi-rs/keyring').catch((err: unknown) => {
    keyring = null;
    throw err;
  }));

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

  private async entry(name: string): Promise<AsyncEntry> {
    try {
      const { AsyncEntry } = await loadKeyring();
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
    const e = await this.entry(name);
    const v = await this.run(() => e.getPassword());
    registerSecret(v);
    return v;
  }
  async set(name: string, value: string): Promise<void> {
    registerSecret(value);
    const e = await this.entry(name);
    await this.run(() => e.setPassword(value));
  }
  async delete(name: string): Promise<void> {
    const e = await this.entry(name);
    await this.run(() => e.deletePassword());
  }
  async has(name: string): Promise<boolean> {
    return (await this.get(name)) !== null;
  }
}

export type ApiKeySource = 'env' | 'file' | 'keychain' | 'none';

/** POSTDESK_API_KEY_FILE names a file that cannot be used: missing, empty, or readable by others. */
export class ApiKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiKeyFileError';
  }
}

const keyFiles = new Map<string, string>();

/**
 * The key in POSTDESK_API_KEY_FILE, read once per process. The file must be private (no group or
 * other permission bits): a key others can read is refused rather than used.
 */
export function readApiKeyFile(path: string, platform: string = process.platform): string {
  const cached = keyFiles.get(path);
  if (cached) return cached;
  const name = `POSTDESK_API_KEY_FILE (${path})`;
  let text: string;
  try {
    // Checked on the open descriptor: the file read is the file checked.
    text = readCheckedTextFileSync(path, (st) => {
      if (!st.isFile()) throw new ApiKeyFileError(`${name} is not a file`);
      if (platform !== 'win32' && (st.mode & 0o077) !== 0) {
        const mode = (st.mode & 0o777).toString(8).padStart(3, '0');
        throw new ApiKeyFileError(
          `${name} can be read by other users (mode ${mode}); make it private with \`chmod 600 ${path}\``,
        );
      }
    });
  } catch (e) {
    if (e instanceof ApiKeyFileError) throw e;
    throw new ApiKeyFileError(`${name} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const key = text.trim();
  if (!key) throw new ApiKeyFileError(`${name} is empty`);
  registerSecret(key);
  keyFiles.set(path, key);
  return key;
}

/** The key the environment supplies: POSTDESK_API_KEY, else the file POSTDESK_API_KEY_FILE names. */
export function apiKeyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { key: string; source: 'env' | 'file' } | null {
  const fromEnv = env.POSTDESK_API_KEY?.trim();
  if (fromEnv) {
    registerSecret(fromEnv);
    return { key: fromEnv, source: 'env' };
  }
  const file = env.POSTDESK_API_KEY_FILE?.trim();
  return file ? { key: readApiKeyFile(file), source: 'file' } : null;
}

/** The API key: `POSTDESK_API_KEY` or `POSTDESK_API_KEY_FILE` win (headless use), else the keychain. */
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
  const fromEnv = apiKeyFromEnv(env);
  if (fromEnv) return fromEnv;
  const stored = await store.get(API_KEY_SECRET);
  return stored ? { key: stored, source: 'keychain' } : { key: null, source: 'none' };
}
