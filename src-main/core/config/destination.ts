import type { Store } from '../store/store';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where the API key may go: the one rule, for the app, `postdesk web` and the CLI (docs/security.md,
 * "Destinations").
 *
 * A key from the environment (`POSTDESK_API_KEY`, or the file `POSTDESK_API_KEY_FILE` names) was given for one
 * address: `POSTDESK_BASE_URL`, else the saved address as the person set it (`postdesk config set baseUrl`, or
 * the address saved before this process started). It is never sent to an address a page chose (Connect, or the
 * Settings screen), even one the person confirmed: the key that goes there is the one typed into Connect and
 * kept in the keychain. So the saved address remembers when a page chose it.
 */

/** A row of the settings table beside the settings (not one itself): the address a page last saved. */
const PAGE_CHOSEN = 'pageChosenBaseUrl';

/** The same service address, whatever trailing slash either is written with. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const norm = (u: string): string => {
    try {
      return new URL(u).href.replace(/\/+$/, '');
    } catch {
      return u.replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** Whether a page chose `baseUrl` (the saved address, as the page saved it). */
export function pageChoseAddress(store: Pick<Store, 'settings'>, baseUrl: string | null): boolean {
  const chosen = store.settings.get(PAGE_CHOSEN);
  return typeof chosen === 'string' && sameAddress(chosen, baseUrl);
}

/** Remembers that a page saved `baseUrl`; null: the saved address is the person's own again. */
export function markPageChosenAddress(store: Pick<Store, 'settings'>, baseUrl: string | null): void {
  if (baseUrl) store.settings.set(PAGE_CHOSEN, baseUrl);
  else store.settings.delete(PAGE_CHOSEN);
}

/**
 * The address a key from the environment was configured with: `POSTDESK_BASE_URL`, else the saved address
 * unless a page chose it; null when there is none.
 */
export function envKeyAddress(env: Env, saved: string | null, pageChose: boolean): string | null {
  return env.POSTDESK_BASE_URL || (saved && !pageChose ? saved : null);
}

/**
 * Whether the environment's key may be sent to `baseUrl`. `flag`: the address was typed on this command line
 * (`--base-url`), which is the person's own choice as much as POSTDESK_BASE_URL is.
 */
export function envKeyMayGoTo(baseUrl: string, configured: string | null, flag = false): boolean {
  return flag || sameAddress(baseUrl, configured);
}
