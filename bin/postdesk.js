#!/usr/bin/env node
// `postdesk`: runs the built CLI (out/cli, made by `npm run build:cli`, which `npm install` runs as `postprepare`).
// In a source checkout whose sources changed since that build, or that was never built, it runs the TypeScript
// sources through tsx instead, so a contributor never runs stale code. The CLI runs in this same process, so
// signals reach it rather than a wrapper.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `postdesk needs Node 22.12 or later (22 or 24 LTS); this is Node ${process.versions.node}.\n`,
  );
  process.exit(1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'cli', 'postdesk.js');
const sourceEntry = join(root, 'src-main', 'cli', 'main.ts');

/** V8's compiled code for the CLI's modules, kept per user between runs: most of a cold start is compiling. */
function enableCompileCache() {
  if (!module.enableCompileCache || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  if (process.env.NODE_COMPILE_CACHE) {
    module.enableCompileCache();
    return;
  }
  const env = process.env;
  const base =
    process.platform === 'win32'
      ? join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'Postdesk', 'Cache')
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches', 'Postdesk')
        : join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'postdesk');
  const dir = join(base, 'compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    module.enableCompileCache(dir);
  } catch {
    // A cache is an optimisation: without a writable home the CLI runs the same, only slower.
  }
}

/**
 * In a source checkout: whether a file the build was made from (out/cli/inputs.json lists them) changed since.
 * A missing list or file counts as changed.
 */
function buildIsStale() {
  try {
    const builtAt = statSync(built).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
    return inputs.some(
      (f) => (statSync(join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > builtAt,
    );
  } catch {
    return true;
  }
}

const isCheckout = existsSync(sourceEntry);
const fresh = existsSync(built) && !(isCheckout && buildIsStale());

if (fresh) {
  enableCompileCache();
  await import(pathToFileURL(built).href);
} else if (isCheckout) {
  if (process.stderr.isTTY && existsSync(built)) {
    process.stderr.write(
      'postdesk: sources changed since the last build; running them (`npm run build:cli` is faster)\n',
    );
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(sourceEntry).href);
} else {
  process.stderr.write(`postdesk: ${built} is missing; this copy of Postdesk is incomplete, reinstall it\n`);
  process.exit(1);
}
