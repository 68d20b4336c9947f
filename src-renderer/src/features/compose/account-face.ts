/** How a preview and an avatar show an account: its display name, its handle when the name carries one, initials. */
export interface AccountFace {
  readonly name: string;
  readonly handle: string | null;
  readonly initials: string;
}

/** The first letters of the first two words: the avatar when the service gives no picture. */
export const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => Array.from(w)[0]?.toUpperCase() ?? '')
    .join('') || '?';

/**
 * The service names an account as it likes ("Demo X (@postdesk_demo)"): a trailing "(@handle)" is the handle,
 * the rest the display name. Anything else is the display name whole, with no handle.
 */
export function faceOf(accountName: string): AccountFace {
  const m = /^(.*?)\s*\((@[^\s()]+)\)\s*$/.exec(accountName);
  const name = (m?.[1] ?? '').trim() || accountName.trim();
  return { name, handle: m ? (m[2] ?? null) : null, initials: initialsOf(name) };
}
