/**
 * `npm run test:desktop` where no Electron runtime is installed: it must say so, count what it did not
 * run, and exit non-zero (77), never pass. The runtime is hidden with ELECTRON_OVERRIDE_DIST_PATH on an
 * empty folder, so this holds on a machine (CI) that has Electron installed too.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryInDist, electronRuntime } from '../../desktop/electron-runtime';
import { scaled } from '../../helpers/timeouts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = resolve(import.meta.dirname, '../../..');
const empty = mkdtempSync(join(tmpdir(), 'postdesk-no-electron-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const withOverride = <T>(dir: string, f: () => T): T => {
  const saved = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  process.env.ELECTRON_OVERRIDE_DIST_PATH = dir;
  try {
    return f();
  } finally {
    if (saved === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
    else process.env.ELECTRON_OVERRIDE_DIST_PATH = saved;
  }
};

describe('the desktop test runner', () => {
  it('finds a runtime only where its binary exists, without starting a download', () => {
    expect(withOverride(empty, electronRuntime)).toBeNull();
    const dist = mkdtempSync(join(tmpdir(), 'postdesk-electron-dist-'));
    try {
      const bin = join(dist, binaryInDist() ?? 'electron');
      mkdirSync(dirname(bin), { recursive: true });
      writeFileSync(bin, '');
      expect(withOverride(dist, electronRuntime)).toBe(bin);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it(
    'without Electron: says so, counts the tests it did not run, and exits 77',
    async () => {
      const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty };
      const listed = await run(
        process.execPath,
        [
          require.resolve('@playwright/test/cli'),
          'test',
          '--config',
          'playwright.desktop.config.ts',
          '--list',
        ],
        { cwd: ROOT, env },
      );
      const total = Number(/Total: (\d+) tests?/.exec(listed.stdout)?.[1]);
      expect(total).toBeGreaterThanOrEqual(7);

      const failure = await run(process.execPath, ['--import', 'tsx', 'test/desktop/run.ts'], {
        cwd: ROOT,
        env,
      }).then(
        () => null,
        (e: { code: number; stdout: string }) => e,
      );
      expect(failure?.code).toBe(77);
      expect(failure?.stdout.split('\n')[0]).toBe(
        `skipped: no Electron runtime — ${total} desktop tests not run`,
      );
      expect(failure?.stdout).not.toMatch(/Downloading Electron/);
    },
    scaled(60_000),
  );
});
