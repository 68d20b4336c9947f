import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkNode, lowestAccepted, satisfies } from '../../../scripts/check-node.mjs';

/**
 * scripts/check-node.mjs, run by `npm test` before anything else: a Node that a dependency's `engines` refuses is
 * named in a second, with the versions that will do, instead of failing minutes later on a missing API.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/check-node.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'pd-check-node-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('reading engines ranges', () => {
  it.each([
    ['^22.22.2 || ^24.15.0 || >=26.0.0', '22.22.2', true],
    ['^22.22.2 || ^24.15.0 || >=26.0.0', '22.22.1', false],
    ['^22.22.2 || ^24.15.0 || >=26.0.0', '23.9.0', false],
    ['^22.22.2 || ^24.15.0 || >=26.0.0', '24.14.9', false],
    ['^22.22.2 || ^24.15.0 || >=26.0.0', '27.0.0', true],
    ['^20.19.0 || >=22.12.0', '22.11.0', false],
    ['>= 10', '9.9.9', false],
    ['>=22', '22.0.0', true],
    ['^16 || ^18 || >=20', '17.1.0', false],
    ['10.* || >= 12.*', '11.0.0', false],
    ['10.* || >= 12.*', '10.3.0', true],
    ['>=1.2.0 <2', '2.0.0', false],
    ['~1.2.3', '1.3.0', false],
  ])('%s with %s: %s', (range, version, ok) => {
    expect(satisfies(version, range)).toBe(ok);
  });

  it('finds the lowest version of each LTS line that every range accepts', () => {
    const ranges = [
      ['jsdom', '31.0.1', '^22.22.2 || ^24.15.0 || >=26.0.0'],
      ['commander', '15.1.0', '>=22.12.0'],
    ] as const;
    expect(lowestAccepted(ranges)).toEqual(['22.22.2', '24.15.0']);
  });
});

describe('the check of this repository', () => {
  it('passes the Node running the tests', () => {
    expect(checkNode(process.versions.node, ROOT)).toBeNull();
  });

  it('names the floor and the dependencies that refuse an older Node', () => {
    const on20 = checkNode('20.19.0', ROOT) ?? '';
    expect(on20).toMatch(/^npm test needs Node 22\.22\.2\+ or 24\.15\+; this is Node 20\.19\.0\.\n/);
    expect(on20).toContain('jsdom');
    expect(on20).toContain('source scripts/dev-node.sh 24');
    // 22.12 runs the app, but not the test tools.
    expect(checkNode('22.12.0', ROOT)).toMatch(
      /engines: jsdom [\d.]+ \(\^22\.22\.2 \|\| \^24\.15\.0 \|\| >=26\.0\.0\)\.$/m,
    );
  });

  it('is what `npm test` runs first', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.pretest).toBe('node scripts/check-node.mjs');
  });
});

// npm is npm.cmd on Windows, which spawn cannot start without a shell; the check itself is the same there.
describe.skipIf(process.platform === 'win32')('npm test on a Node the dependencies refuse', () => {
  it('stops before its first step, in a second, saying why', () => {
    const project = join(scratch, 'project');
    mkdirSync(join(project, 'node_modules/future-tool'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'planted',
        version: '1.0.0',
        scripts: {
          pretest: `node ${JSON.stringify(SCRIPT)} .`,
          test: 'node -e "console.log(`typecheck ran`)"',
        },
        devDependencies: { 'future-tool': '1.0.0' },
      }),
    );
    writeFileSync(
      join(project, 'node_modules/future-tool/package.json'),
      JSON.stringify({ name: 'future-tool', version: '1.0.0', engines: { node: '>=99.1.0' } }),
    );
    const started = Date.now();
    const r = spawnSync('npm', ['test'], { cwd: project, encoding: 'utf8' });
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stdout).not.toContain('typecheck ran');
    expect(r.stderr).toContain(
      `npm test needs Node of another version; this is Node ${process.versions.node}.\nIts dependencies say so in their engines: future-tool 1.0.0 (>=99.1.0).`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
