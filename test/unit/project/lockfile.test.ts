import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` on a fresh clone must leave package-lock.json as it is. npm writes `hasInstallScript: true` for
 * each package with an install-time script (preinstall, install, postinstall, or a binding.gyp, which implies
 * `node-gyp rebuild`), so a lock entry without it is rewritten at the first install (better-sqlite3 once was).
 */

const ROOT = resolve(import.meta.dirname, '../../..');

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}
interface Manifest {
  version?: string;
  scripts?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Whether npm counts the installed package at `path` as having an install script, as its lock entry records. */
function hasInstallScript(path: string, manifest: Manifest): boolean {
  const s = manifest.scripts ?? {};
  if (s.preinstall || s.install || s.postinstall) return true;
  return existsSync(join(ROOT, path, 'binding.gyp'));
}

describe('package-lock.json', () => {
  it('marks exactly the installed packages that have an install script, as npm install writes it', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path) continue;
      const file = join(ROOT, path, 'package.json');
      // Other platforms' optional packages are not installed here; a different version is another tree's.
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      if (manifest.version !== entry.version) continue;
      checked += 1;
      const expected = hasInstallScript(path, manifest);
      if (expected !== (entry.hasInstallScript === true)) {
        wrong.push(`${path}: hasInstallScript should be ${expected}`);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });
});
