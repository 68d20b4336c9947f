import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/timeouts';

/**
 * The package as a user gets it: `npm pack` (which builds the CLI and the web UI through `prepack`), then
 * `npm install -g ./postdesk-*.tgz --prefix DIR`, then the installed `postdesk` with nothing of the checkout on its
 * PATH. The pack runs in a copy of the working tree, so rebuilding out/ cannot disturb other tests meanwhile.
 */
const ROOT = process.cwd();
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DEV_ONLY = ['tsx', 'vite', 'vitest', 'electron', 'electron-vite', 'typescript', 'esbuild', 'rolldown'];

let work: string;
let tarball: string;
let installed: string;
let bin: string;
let files: string[];
/** What `npm install -g` printed on stderr: its warnings. */
let installWarnings: string;

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  }
  return total;
}

const MB = 1024 * 1024;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pd-cli-pack-'));
  const copy = join(work, 'checkout');
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)) && !lstatSync(join(ROOT, f)).isSymbolicLink());
  for (const f of tracked) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(join(ROOT, f), join(copy, f));
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(copy, 'node_modules'));

  // Without vitest's NODE_ENV=test, which would make prepack's build a development one (React's, for one).
  const { NODE_ENV: _test, ...userEnv } = process.env;
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env: userEnv });
  expect(pack.code, pack.err).toBe(0);
  // prepack's build logs come first on stdout (some with brackets); npm's JSON starts with a lone `[` line.
  const [info] = JSON.parse(pack.out.slice(pack.out.search(/^\[\s*$/m))) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(work, info!.filename);
  files = info!.files.map((f) => f.path).sort();

  const prefix = join(work, 'prefix');
  const install = await run(
    'npm',
    ['install', '-g', tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: work, env: process.env },
  );
  expect(install.code, install.err).toBe(0);
  installWarnings = install.err;
  installed = join(prefix, 'lib', 'node_modules', 'postdesk');
  bin = join(prefix, 'bin', 'postdesk');
}, scaled(600_000));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The installed command, with only Node and the system on PATH: no tsx, no checkout. */
function postdesk(...args: string[]) {
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  return run(bin, args, {
    cwd: home,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      POSTDESK_DATA_DIR: join(work, 'data'),
      POSTDESK_KEYCHAIN_SERVICE: 'postdesk-test-pack',
      NO_COLOR: '1',
    },
  });
}

describe('npm pack, then npm install -g from the tarball', () => {
  it('packs only what runs: the launcher, the built CLI and the built web UI', () => {
    const outside = files.filter(
      (f) => !/^(bin\/postdesk\.js|out\/cli\/.+\.js|out\/web\/.+|package\.json|README\.md)$/.test(f),
    );
    expect(outside).toEqual([]);
    expect(files).toContain('out/cli/postdesk.js');
    expect(files).toContain('out/web/index.html');
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
    const size = statSync(tarball).size;
    const unpacked = bytesUnder(installed) - bytesUnder(join(installed, 'node_modules'));
    const withDeps = bytesUnder(installed);
    console.log(
      `tarball ${(size / MB).toFixed(2)} MiB (${files.length} files), package ${(unpacked / MB).toFixed(2)} MiB,` +
        ` installed with its dependencies ${(withDeps / MB).toFixed(0)} MiB`,
    );
    expect(size).toBeLessThan(5 * MB);
    // The README and docs/cli.md say how big it is; they must say what a pack makes, within a tenth.
    for (const doc of ['README.md', 'docs/cli.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8').replace(/\s+/g, ' ');
      const stated = Number(/`postdesk-<version>\.tgz` \([^)]*?about ([\d.]+) MiB/.exec(text)?.[1]);
      expect(Math.abs(size / MB - stated) / stated, `${doc} says about ${stated} MiB`).toBeLessThan(0.1);
    }
  });

  it('asks for no approval of a script of its own', () => {
    // npm lists a tarball's `prepare` among the install scripts to approve, though it never runs it there.
    expect(installWarnings).not.toMatch(/^npm warn install-scripts +postdesk@/m);
  });

  it('installs no dev dependency and no tsx', () => {
    const names = new Set<string>();
    for (const e of readdirSync(join(installed, 'node_modules'), { recursive: true, withFileTypes: true })) {
      if (e.isDirectory() && e.parentPath.endsWith('node_modules')) names.add(e.name);
    }
    expect(DEV_ONLY.filter((n) => names.has(n))).toEqual([]);
    expect(names.has('better-sqlite3')).toBe(true);
  });

  it('runs --version, --sandbox accounts and executor --once', async () => {
    const version = await postdesk('--version');
    expect(version.code, version.err).toBe(0);
    expect(version.out.trim()).toBe(VERSION);

    const accounts = await postdesk('--sandbox', 'accounts');
    expect(accounts.code, accounts.err).toBe(0);
    expect(accounts.out).toContain('Demo TikTok');

    const once = await postdesk('--sandbox', 'executor', '--once', '--json');
    expect(once.code, once.err).toBe(0);
    expect(JSON.parse(once.out).executor).toMatchObject({ state: 'stopped', last_error: null });
  });
});
