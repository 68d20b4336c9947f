/**
 * `npm run test:desktop`: the desktop launch tests (playwright.desktop.config.ts) against the built app.
 *
 * Where no Electron runtime is installed (this package's install step downloads it; a machine without
 * that download has only the npm package), nothing can be launched: the tests are counted with
 * Playwright's `--list`, reported as not run, and the script exits with SKIPPED_EXIT (77, the
 * "skipped" code of Automake's test harness), never 0, so it cannot be mistaken for a pass.
 * `npm test` does not include this script; CI runs it where Electron is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { APP_DIR, BUILT_MAIN, electronPackageDir, electronRuntime } from './electron-runtime';

export const SKIPPED_EXIT = 77;
const CONFIG = 'playwright.desktop.config.ts';
const require = createRequire(import.meta.url);
const cli = require.resolve('@playwright/test/cli');
const passThrough = process.argv.slice(2);

function playwright(args: readonly string[], capture: boolean) {
  return spawnSync(process.execPath, [cli, 'test', '--config', CONFIG, ...args], {
    cwd: APP_DIR,
    stdio: capture ? 'pipe' : 'inherit',
    encoding: 'utf8',
  });
}

/** How many tests the config holds, from Playwright's own listing ("Total: 7 tests in 4 files"). */
function countTests(): number {
  const listed = playwright(['--list', ...passThrough], true);
  const total = /Total: (\d+) tests? in \d+ files?/.exec(listed.stdout ?? '');
  if (listed.status !== 0 || !total) {
    process.stderr.write(listed.stdout ?? '');
    process.stderr.write(listed.stderr ?? '');
    throw new Error('could not list the desktop tests');
  }
  return Number(total[1]);
}

const runtime = electronRuntime();
if (!runtime) {
  const count = countTests();
  const pkg = electronPackageDir();
  const install = pkg
    ? `node ${relative(APP_DIR, pkg).replaceAll('\\', '/')}/install.js`
    : 'npm install electron';
  console.log(`skipped: no Electron runtime — ${count} desktop tests not run`);
  console.log(`  (install it with \`${install}\`, then \`npm run build && npm run test:desktop\`)`);
  process.exit(SKIPPED_EXIT);
}

if (!existsSync(BUILT_MAIN)) {
  console.error(
    `the app is not built (${relative(APP_DIR, BUILT_MAIN)} is missing): run \`npm run build\` first`,
  );
  process.exit(1);
}
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  console.error('no display: run under a display server, e.g. `xvfb-run -a npm run test:desktop`');
  process.exit(1);
}

console.log(`desktop tests with Electron at ${runtime}`);
const run = playwright(passThrough, false);
process.exit(run.status ?? 1);
