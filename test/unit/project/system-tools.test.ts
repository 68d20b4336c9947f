import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingToolsSummary } from '../../helpers/missing-tools-reporter';
import { isCi, onPath, systemTools, toolRequirement, toolsRequired } from '../../helpers/system-tools';

/**
 * The optional system tools of the tests (test/helpers/system-tools.ts): one list (scripts/system-tools.txt) that
 * .ci/run installs and the README names; a test whose tool is missing is skipped with its reason where that is
 * allowed and fails under CI=true; the run's end lists the skips. The last tests run a real vitest on a planted
 * test file with a PATH that has no zsh, without and with CI=true.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'pd-system-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const optional = systemTools().filter((t) => t.need === 'optional');

describe('the list of system tools', () => {
  it('names each tool once, with its package and what needs it', () => {
    const commands = systemTools().map((t) => t.command);
    expect(new Set(commands).size).toBe(commands.length);
    expect(optional.map((t) => t.command)).toEqual(
      expect.arrayContaining(['zsh', 'fish', 'gnome-keyring-daemon', 'bwrap', 'systemd-analyze']),
    );
    for (const t of systemTools()) expect(t.what.length, t.command).toBeGreaterThan(10);
    expect(() => systemTools('sometimes zsh zsh why')).toThrow(
      /cannot read the line "sometimes zsh zsh why"/,
    );
  });

  it('is the one the README’s install line and .ci/run use', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = /^sudo apt-get install (.+)$/m.exec(readme)?.[1];
    expect(line?.split(' ')).toEqual(optional.map((t) => t.package));
    for (const ci of ['.ci/run', '.github/workflows/ci.yml']) {
      expect(readFileSync(join(ROOT, ci), 'utf8'), ci).toContain('scripts/system-tools.txt');
    }
  });
});

// Executable bits and `:` between PATH folders: the POSIX systems the list is for.
describe.skipIf(process.platform === 'win32')('finding a tool on PATH', () => {
  it('counts an executable file only', () => {
    const runnable = join(scratch, 'runnable');
    const blocked = join(scratch, 'blocked');
    mkdirSync(join(runnable, 'fish'), { recursive: true }); // a folder named like the tool
    mkdirSync(blocked, { recursive: true });
    writeFileSync(join(runnable, 'zsh'), '#!/bin/sh\n');
    chmodSync(join(runnable, 'zsh'), 0o755);
    writeFileSync(join(blocked, 'zsh'), '#!/bin/sh\n');
    chmodSync(join(blocked, 'zsh'), 0o644);
    expect(onPath('zsh', `${blocked}:${runnable}`)).toBe(true);
    expect(onPath('zsh', blocked)).toBe(false);
    expect(onPath('fish', runnable)).toBe(false);
    expect(onPath('zsh', '')).toBe(false);
  });
});

describe('what a test that needs a tool gets', () => {
  const present = (c: string) => c !== 'zsh';
  it('runs as usual where the tool is there', () => {
    expect(toolRequirement('fish', 'completion', { present, ci: false })).toEqual({});
    expect(toolRequirement('fish', 'completion', { present, ci: true })).toEqual({});
  });

  it('is skipped where it is missing, with the tool and the reason for the closing lines', () => {
    expect(toolRequirement(['fish', 'zsh'], 'completion scripts run there', { present, ci: false })).toEqual({
      skip: true,
      meta: { missingTool: { tools: ['zsh'], why: 'completion scripts run there' } },
    });
  });

  it('fails under CI, naming the package to install', () => {
    expect(() =>
      toolRequirement('zsh', 'the zsh completion script is run in zsh', { present, ci: true }),
    ).toThrow(
      'zsh must be installed when CI=true (the zsh completion script is run in zsh): apt-get install zsh',
    );
  });

  it('refuses a tool the list does not name, so the list stays whole', () => {
    expect(() => toolRequirement('tmux', 'x', { present, ci: false })).toThrow(
      'needsTool: "tmux" is not an optional tool of scripts/system-tools.txt',
    );
    expect(() => toolRequirement('ffmpeg', 'x', { present, ci: false })).toThrow(/not an optional tool/);
  });

  it('is required under CI on Linux only, where CI installs the list', () => {
    expect(toolsRequired('true', 'linux')).toBe(true);
    expect(toolsRequired('true', 'darwin')).toBe(false);
    expect(toolsRequired('true', 'win32')).toBe(false);
    expect(toolsRequired(undefined, 'linux')).toBe(false);
  });

  it('reads CI as CI services set it', () => {
    expect([isCi('true'), isCi('1'), isCi('TRUE'), isCi('woodpecker')]).toEqual([true, true, true, true]);
    expect([isCi(undefined), isCi(''), isCi('0'), isCi('false')]).toEqual([false, false, false, false]);
  });
});

describe('the closing lines', () => {
  it('group the skips by tool, with the reason, the tests and the install line', () => {
    const lines = missingToolsSummary([
      { tools: ['zsh'], why: 'run in zsh', test: 'a.test.ts > zsh one' },
      { tools: ['gnome-keyring-daemon'], why: 'a real keyring', test: 'b.test.ts > keyring' },
      { tools: ['zsh'], why: 'run in zsh', test: 'c.test.ts > zsh two' },
    ]);
    expect(lines).toEqual([
      'skipped (missing tool): zsh — 2 tests (run in zsh): a.test.ts > zsh one, c.test.ts > zsh two',
      'skipped (missing tool): gnome-keyring-daemon — 1 test (a real keyring): b.test.ts > keyring',
      'to run them: sudo apt-get install zsh gnome-keyring (README, "Optional tools for the tests")',
    ]);
    expect(missingToolsSummary([])).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('a real vitest run on a machine without zsh', () => {
  /** A planted test file that needs zsh and one that needs nothing, run by vitest with only `bin` on PATH. */
  function run(ci: boolean) {
    const dir = mkdtempSync(join(scratch, 'run-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const helpers = join(ROOT, 'test/helpers');
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `import { MissingToolsReporter } from ${JSON.stringify(join(helpers, 'missing-tools-reporter.ts'))};
export default { test: { include: ['*.test.ts'], globals: true, reporters: ['default', new MissingToolsReporter()] } };
`,
    );
    writeFileSync(
      join(dir, 'planted.test.ts'),
      `import { needsTool } from ${JSON.stringify(join(helpers, 'system-tools.ts'))};
it('runs its script in zsh', needsTool('zsh', 'the script is run in zsh'), () => { throw new Error('ran without zsh'); });
it('needs nothing', () => {});
`,
    );
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--root',
        dir,
        '--config',
        join(dir, 'vitest.config.mjs'),
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: bin, HOME: dir, CI: ci ? 'true' : '', NO_COLOR: '1' },
        timeout: 60_000,
      },
    );
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  }

  it('skips the test and names the tool, the reason and the test at the end', () => {
    const r = run(false);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/1 passed \| 1 skipped/);
    expect(r.out).toContain(
      'skipped (missing tool): zsh — 1 test (the script is run in zsh): planted.test.ts > runs its script in zsh',
    );
  });

  it.runIf(process.platform === 'linux')('fails under CI=true, saying what to install', () => {
    const r = run(true);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(
      'zsh must be installed when CI=true (the script is run in zsh): apt-get install zsh',
    );
    expect(r.out).not.toContain('ran without zsh');
  });
});
