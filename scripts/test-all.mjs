// `npm test`: typecheck, lint, every vitest project and Playwright, in the fewest minutes two cores allow.
// Playwright's flows mostly wait (on the page, the host, the sandbox's latency and faults): a whole run keeps about a
// quarter of one core busy. The rest only computes: the two tsc configs and lint (one thread each), then vitest,
// which keeps both cores busy. So Playwright starts as soon as the web build it serves is made, and the rest runs
// beside it, the checks side by side and then vitest. The output of a step beside others is held and printed whole
// as it ends; vitest's and Playwright's lines are printed as they come, each with its name. Both are told they share
// the machine (test/helpers/timeouts.ts), so their time limits allow for it from their first test. The first failure
// stops what is still running and ends the run with its status.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const require = createRequire(import.meta.url);
const node = process.execPath;
/** `npm run --silent <script>` through the npm that started this run (`npm test` sets npm_execpath), else npm on PATH. */
const npmRun = (script) =>
  process.env.npm_execpath
    ? [node, [process.env.npm_execpath, 'run', '--silent', script]]
    : ['npm', ['run', '--silent', script]];

/** The same invocation, build-info file included, as `npm run typecheck` (package.json), for one config. */
const typecheck = (config) => [
  node,
  [
    require.resolve('typescript/bin/tsc'),
    '-p',
    `tsconfig.${config}.json`,
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    join('out', 'tsc', `${config}.tsbuildinfo`),
  ],
];
/** What vitest plus Playwright add to the load; see SHARED_FACTOR_ENV in test/helpers/timeouts.ts. */
const shared = { ...process.env, POSTDESK_TEST_SHARED_FACTOR: '2' };

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
const checks = Promise.all([
  step('typecheck (tsconfig.node.json)', typecheck('node'), { held: true }),
  step('typecheck (tsconfig.web.json)', typecheck('web'), { held: true }),
  step('lint', npmRun('lint'), { held: true }),
]);
const build = await step('build:web', npmRun('build:web'), { held: true });
// `npm run test:e2e` is the web build, then this.
const e2e = step('playwright', [node, [require.resolve('@playwright/test/cli'), 'test']], { env: shared });
const [tscNode, tscWeb, lint] = await checks;
const unit = await step('vitest', npmRun('test:unit'), { env: shared });
const browser = await e2e;
process.stdout.write(
  `\nnpm test passed in ${seconds(started)} s: build:web ${build} s, then beside Playwright (${browser} s) ` +
    `the typecheck (${tscNode} s and ${tscWeb} s) and lint (${lint} s) side by side, then vitest (${unit} s)\n`,
);
