/**
 * Global setup of the integration project (vitest.config.ts): builds the CLI into out/cli once, before any test
 * file runs, when the build is missing or older than one of its sources. Every test that starts `postdesk` as a
 * process (bin/postdesk.js) then runs the build, as an installed copy does, instead of each spawn compiling the
 * TypeScript sources through tsx again: a few hundred milliseconds a start instead of seconds. The build swaps
 * itself in whole (vite.cli.config.ts), so a test that rebuilds it meanwhile (cli-build) cannot tear it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILT = join(ROOT, 'out', 'cli', 'postdesk.js');

/**
 * `postdesk` as a person starts it (bin/postdesk.js): the build in out/cli, made by `setup` below for the run, or the
 * sources through tsx when the build is older than them. Here, not in cli-process.ts, so that a test that only
 * spawns it does not load the CLI's program too.
 */
export const POSTDESK_BIN = join(ROOT, 'bin', 'postdesk.js');

/** The same test as bin/postdesk.js makes before it chooses the build: a listed input newer than it, or no list. */
function buildIsStale(): boolean {
  try {
    const builtAt = statSync(BUILT).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(ROOT, 'out', 'cli', 'inputs.json'), 'utf8')) as string[];
    return inputs.some(
      (f) => (statSync(join(ROOT, f), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > builtAt,
    );
  } catch {
    return true;
  }
}

export function setup(): void {
  if (!buildIsStale()) return;
  const started = Date.now();
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'vite.cli.config.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`building the CLI for the tests failed:\n${r.stdout}\n${r.stderr}`);
  process.stdout.write(`built the CLI into out/cli for the tests (${Date.now() - started} ms)\n`);
}
