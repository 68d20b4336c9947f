// `npm test`: typecheck, lint, every vitest project and Playwright, in as few minutes as two cores allow without
// making a flow race the machine. The two tsc configs and lint each use one thread, so they run side by side (their
// output held and printed whole as each ends), beside the web build. Then Playwright, alone: its flows mostly wait
// on the page, the host and the sandbox, but a drag or a one-second notice run beside vitest (which keeps both
// cores busy) missed its moment on a fresh machine, so the browser never shares the machine with vitest. Then
// vitest. Their lines are printed as they come, each with its step's name. The first failure stops what is still
// running and ends the run with its status.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { typecheckArgs } from './typecheck-args.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const require = createRequire(import.meta.url);
const node = process.execPath;
/** `npm run --silent <script>` through the npm that started this run (`npm test` sets npm_execpath), else npm on PATH. */
const npmRun = (script) =>
  process.env.npm_execpath
    ? [node, [process.env.npm_execpath, 'run', '--silent', script]]
    : ['npm', ['run', '--silent', script]];

/** One config's typecheck, as `npm run typecheck` runs it. */
const typecheck = (config) => [node, typecheckArgs(config)];
const running = new Set();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

/**
 * Runs one step. `held`: its output is printed whole at its end; else each line as it comes, after the step's name.
 * Resolves with the seconds it took; a failure stops every other step and ends this process with its status.
 */
function step(name, [command, args], { held = false, env = process.env } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const out = [];
    for (const stream of [child.stdout, child.stderr]) {
      if (held) stream.on('data', (d) => out.push(d));
      else createInterface({ input: stream }).on('line', (l) => process.stdout.write(`${name} | ${l}\n`));
    }
    child.on('close', (code, signal) => {
      running.delete(child);
      const took = seconds(started);
      if (held) process.stdout.write(`\n── ${name} (${took} s)\n${Buffer.concat(out).toString()}`);
      if (code !== 0) {
        process.stderr.write(`\nnpm test: ${name} failed (${signal ?? `exit ${code}`}, ${took} s)\n`);
        // As Ctrl-C would: vitest and Playwright then stop their workers, and Playwright its hosts and browsers.
        for (const other of running) other.kill('SIGINT');
        process.exit(code || 1);
      }
      resolve(took);
    });
  });
}

const started = Date.now();
mkdirSync(join(root, 'out', 'tsc'), { recursive: true });
const [tscNode, tscWeb, lint, build] = await Promise.all([
  step('typecheck (tsconfig.node.json)', typecheck('node'), { held: true }),
  step('typecheck (tsconfig.web.json)', typecheck('web'), { held: true }),
  step('lint', npmRun('lint'), { held: true }),
  // `npm run test:e2e` is the web build, then Playwright.
  step('build:web', npmRun('build:web'), { held: true }),
]);
const browser = await step('playwright', [node, [require.resolve('@playwright/test/cli'), 'test']]);
const unit = await step('vitest', npmRun('test:unit'));
process.stdout.write(
  `\nnpm test passed in ${seconds(started)} s: the typecheck (${tscNode} s and ${tscWeb} s), lint (${lint} s) and ` +
    `build:web (${build} s) side by side, then Playwright (${browser} s), then vitest (${unit} s)\n`,
);
