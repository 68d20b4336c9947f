import { extname, join, resolve } from 'node:path';
import { isWithin, realPath, statPath } from '../core/files';
/** Content types of the files a renderer build holds. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The one static-file server's rules, for both hosts of the built renderer (Electron's app scheme in
 * src-main/app/window.ts, `postdesk web` in src-main/cli/web/file-routes.ts): the built file for a URL
 * path, confined to `root` (after following symlinks), or the app's index.html for a client-side route
 * (a path without an extension). No dotfile is served: a build has none a page needs. Null: not found.
 */
export async function resolveStatic(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  if (
    decoded.split(/[\\/]/).some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..')
  )
    return null;
  const realRoot = await realPath(root).catch(() => null);
  if (!realRoot) return null;
  const wanted = resolve(realRoot, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  const candidates = decoded.endsWith('/') ? [join(wanted, 'index.html')] : [wanted];
  if (!extname(decoded)) candidates.push(join(realRoot, 'index.html'));
  for (const c of candidates) {
    const real = await realPath(c).catch(() => null);
    if (!real || !isWithin(realRoot, real)) continue;
    const st = await statPath(real).catch(() => null);
    if (st?.isFile()) return real;
  }
  return null;
}

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
