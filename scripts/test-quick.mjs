// `npm run test:quick`: the check before a commit, well under a minute on a quiet machine, where `npm test` takes
// twelve. An incremental typecheck (tsc keeps what it learnt in out/tsc, so a second run checks only what changed
// and what depends on it), then the unit tests that import a changed file, however indirectly (`vitest related`, the
// `unit` project of vitest.config.ts). "Changed": uncommitted changes, tracked and new; `npm run test:quick -- REF`
// also counts what changed since REF (`main`, say). Contract, integration, security and Playwright tests are left to
// `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheckArgs } from './typecheck-args.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const ref = process.argv[2];

function git(args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.split('\n').filter(Boolean);
}

/** Runs node with `args`; answers the seconds it took, or ends this process with its failure. */
async function step(what, args) {
  const started = Date.now();
  const status = await new Promise((resolve) =>
    spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }).on('close', resolve),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    process.stderr.write(`test:quick: ${what} failed (${seconds} s)\n`);
    process.exit(status ?? 1);
  }
  return seconds;
}

const changed = [
  ...new Set([
    ...git(['diff', '--name-only', '--diff-filter=d', ref ?? 'HEAD']),
    ...git(['ls-files', '--others', '--exclude-standard']),
  ]),
].filter((f) => /\.(ts|tsx|mts|cts|mjs|cjs|js)$/.test(f));

mkdirSync(join(root, 'out', 'tsc'), { recursive: true });
// The two configs at once, the way `npm run typecheck` keeps them (the same build-info files): each tsc is one
// thread, so on two cores a cold check takes the time of the longer one, not of both.
const typecheck = await Promise.all(
  ['node', 'web'].map((config) => step(`typecheck (tsconfig.${config}.json)`, typecheckArgs(config))),
);

let tests = 'no changed source file, so no unit test';
if (changed.length) {
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const seconds = await step('unit tests', [
    vitest,
    'related',
    '--run',
    '--project',
    'unit',
    '--passWithNoTests',
    ...changed,
  ]);
  tests = `the unit tests related to ${changed.length} changed file${changed.length === 1 ? '' : 's'} ${seconds} s`;
}
process.stdout.write(
  `test:quick: typecheck ${typecheck[0]} s (node) beside ${typecheck[1]} s (web), ${tests}\n`,
);
