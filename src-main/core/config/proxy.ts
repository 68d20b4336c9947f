import { REDACTED, registerSecret } from '../api/redact';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsService } from './settings';
import type { Settings } from '../../../src-shared/settings';

/**
 * The proxy's password is a credential: it lives in the keychain beside the API key, and the `proxyUrl`
 * setting keeps the address and the user name only. The client reads the password when it first
 * connects, and every printout of the address shows it redacted.
 */
export const PROXY_PASSWORD_SECRET = 'proxy-password';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The address without its password, and the password (decoded), if it had one. */
export function splitProxyPassword(url: string): { url: string; password: string | null } {
  const u = parse(url);
  if (!u || !u.password) return { url, password: null };
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), password };
}

/** For printing: the password shown as `[REDACTED]`, the rest as it is. */
export function redactUrlPassword(url: string, hasPassword = false): string {
  const u = parse(url);
  if (!u || !u.username || (!u.password && !hasPassword)) return url;
  u.password = '';
  return u.toString().replace(`//${u.username}@`, `//${u.username}:${REDACTED}@`);
}

/** The stored proxy password, or null (none stored, or no keychain to ask: then the log says so). */
export async function readProxyPassword(
  secrets: SecretStore,
  log: Logger = silentLogger,
): Promise<string | null> {
  try {
    const password = await secrets.get(PROXY_PASSWORD_SECRET);
    registerSecret(password);
    return password;
  } catch (error) {
    log.warn('the proxy password could not be read from the keychain; asking the proxy without one', {
      error: errorText(error),
    });
    return null;
  }
}

export interface ProxyLocal {
  readonly secrets: SecretStore;
  readonly settings: SettingsService;
  readonly log?: Logger | undefined;
}

/** Forgets the stored password; with no keychain there is nothing stored to forget. */
async function forgetPassword(local: ProxyLocal): Promise<void> {
  await local.secrets.delete(PROXY_PASSWORD_SECRET).catch((error: unknown) =>
    local.log?.warn('the proxy password could not be removed from the keychain', {
      error: errorText(error),
    }),
  );
}

/**
 * Saves `proxyUrl`: a password in it goes to the keychain (and the setting keeps the rest). Without a
 * password, the stored one is kept for the same address and forgotten for another (or for null).
 */
export async function saveProxyUrl(local: ProxyLocal, url: string | null): Promise<Readonly<Settings>> {
  if (url === null) {
    await forgetPassword(local);
    return local.settings.update({ proxyUrl: null });
  }
  const { url: bare, password } = splitProxyPassword(url);
  if (password !== null) {
    registerSecret(password);
    await local.secrets.set(PROXY_PASSWORD_SECRET, password);
  } else if (bare !== local.settings.get().proxyUrl) {
    await forgetPassword(local);
  }
  return local.settings.update({ proxyUrl: bare });
}

/**
 * An older version kept the password in the setting: move it to the keychain. Left as it is when no
 * keychain answers (the client still needs it); it is redacted wherever it is shown.
 */
export async function moveProxyPasswordToKeychain(local: ProxyLocal): Promise<void> {
  const stored = local.settings.get().proxyUrl;
  if (!stored || splitProxyPassword(stored).password === null) return;
  await saveProxyUrl(local, stored).catch((error: unknown) =>
    local.log?.warn('the proxy password stays in the settings: the keychain did not take it', {
      error: errorText(error),
    }),
  );
}

/** The `proxyUrl` setting as it is shown: the password, stored or not yet moved, as `[REDACTED]`. */
export async function proxyUrlForDisplay(local: ProxyLocal): Promise<string | null> {
  const stored = local.settings.get().proxyUrl;
  if (!stored) return null;
  return redactUrlPassword(stored, (await readProxyPassword(local.secrets, local.log)) !== null);
}
