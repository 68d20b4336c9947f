import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);

/** The repository root: `electron <root>` runs package.json's `main`, the built out/main/index.js. */
export const APP_DIR = resolve(import.meta.dirname, '../..');
export const BUILT_MAIN = join(APP_DIR, 'out', 'main', 'index.js');

/** Where the electron npm package is (its runtime is downloaded into `dist/` by its install.js). */
export function electronPackageDir(): string | null {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/**
 * The Electron binary, or null when its runtime is not installed. This reads what the package's
 * index.js reads (path.txt, ELECTRON_OVERRIDE_DIST_PATH) without requiring it: `require('electron')`
 * starts a download when the binary is missing, and this must only look.
 */
export function electronRuntime(): string | null {
  const pkg = electronPackageDir();
  if (!pkg) return null;
  const inside = binaryInDist(pkg);
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const bin = join(override, inside ?? 'electron');
    return existsSync(bin) ? bin : null;
  }
  if (!inside) return null;
  const bin = join(pkg, 'dist', inside);
  return existsSync(bin) ? bin : null;
}

/** The binary's path inside a dist folder, as the install wrote it to path.txt (none before the install). */
export function binaryInDist(pkg = electronPackageDir()): string | null {
  const pathFile = pkg ? join(pkg, 'path.txt') : null;
  return pathFile && existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() || null : null;
}
