/** How many account colours tokens.css declares (`--account-1` … `--account-8`, light and dark). */
export const ACCOUNT_COLOURS = 8;

/**
 * An account's colour, 1 to ACCOUNT_COLOURS: the same for an account id on every screen and every run (FNV-1a
 * of the id), so a person learns which colour is which account.
 */
export function accountColour(accountId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) {
    h ^= accountId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 0) % ACCOUNT_COLOURS) + 1;
}
