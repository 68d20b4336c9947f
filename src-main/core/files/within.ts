/**
 * "Is this path inside that folder": the one answer, lexical on paths already made real. A name is inside its
 * root when the relative path from the root neither climbs out (`..`, `../x`) nor jumps to another drive; a name
 * merely starting with two dots (`..notes`) is inside.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** `path` is `root` itself or below it (both absolute, compared as written: pass real paths). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `path` when it exists and lies inside the real path of `root` (a link inside the root that
 * points out of it is outside); null otherwise. The one way to ask before touching a file by a name from
 * elsewhere.
 */
export async function realPathWithin(root: string, path: string): Promise<string | null> {
  const [realRoot, real] = await Promise.all([
    realpath(root).catch(() => null),
    realpath(path).catch(() => null),
  ]);
  return realRoot !== null && real !== null && isWithin(realRoot, real) ? real : null;
}
