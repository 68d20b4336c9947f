import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'postdesk.js');
const BUILT = join(ROOT, 'out', 'cli', 'postdesk.js');

let dir: string;
let sb: TestSandbox;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

let runs = 0;
/** `postdesk <args>`, recording every module it resolves (through a module hook the test registers). */
async function postdesk(args: string[], env: Record<string, string> = {}) {
  const log = join(dir, `loaded-${runs++}.txt`);
  writeFileSync(log, '');
  const r = await run(process.execPath, ['--import', join(dir, 'register.mjs'), BIN, ...args], {
    PATH: process.env.PATH,
    HOME: dir,
    POSTDESK_DATA_DIR: join(dir, 'data'),
    POSTDESK_KEYCHAIN_SERVICE: 'postdesk-test-cli-build',
    PD_LOAD_LOG: log,
    ...env,
  });
  const loaded = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  // The build marks where each source module starts in a chunk with a `// <path>` line.
  const chunks = loaded
    .filter((u) => u.startsWith(`file://${join(ROOT, 'out', 'cli')}`))
    .map((u) => readFileSync(new URL(u), 'utf8'));
  const sources = chunks.flatMap((c) => c.match(/^\/\/ src-\S+$/gm) ?? []).map((l) => l.slice(3));
  // Packages bundled into the chunks, marked the same way (`// ../node_modules/undici/lib/…`).
  const bundled = [
    ...new Set(
      chunks.flatMap((c) =>
        [...c.matchAll(/^\/\/ \S*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]!),
      ),
    ),
  ];
  return { ...r, loaded, sources, bundled, packages: loaded.filter((u) => u.includes('/node_modules/')) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-build-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.PD_LOAD_LOG, r.url + '\\n');
  return r;
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  const build = await run('npm', ['run', '--silent', 'build:cli']);
  expect(build.code, build.err).toBe(0);
  sb = await startTestSandbox();
}, scaled(180_000));
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built CLI loads only what a command needs', () => {
  it('--help and --version load the entry alone: no package, no native module, no command', async () => {
    for (const args of [['--help'], ['--version']]) {
      const r = await postdesk(args);
      expect(r.code).toBe(0);
      expect(r.loaded).toContain(`file://${BUILT}`);
      expect(r.packages).toEqual([]);
      expect(r.sources).toContain('src-main/cli/program.ts');
      expect(
        r.sources.filter((m) =>
          // The error codes' list and the operations' words (plain strings, no zod) are all of src-shared that
          // exit codes and error messages need, with safe-text.ts (no imports), through which commander's own
          // help and errors reach the terminal.
          /^src-main\/(cli\/commands\/(?!index)|core\/(services|store))|^src-sandbox\/|^src-shared\/(?!(api\/(errors|operation-words)|safe-text)\.ts$)/.test(
            m,
          ),
        ),
      ).toEqual([]);
    }
  });

  it('accounts against a running service loads SQLite but neither the sandbox nor ora, nor the keychain when the key comes from the environment', async () => {
    const r = await postdesk(['accounts', '--json'], {
      POSTDESK_BASE_URL: sb.url,
      POSTDESK_API_KEY: sb.apiKey,
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).accounts.length).toBeGreaterThan(0);
    expect(r.packages.some((u) => u.includes('/better-sqlite3/'))).toBe(true);
    expect(r.packages.filter((u) => /\/(fastify|@modelcontextprotocol|ora|ws)\//.test(u))).toEqual([]);
    // POSTDESK_API_KEY gives the key: the keychain's native module (a costly load) is not needed.
    expect(r.packages.filter((u) => u.includes('/@napi-rs/keyring'))).toEqual([]);
    expect(r.loaded.some((u) => u.includes('/src-main/'))).toBe(false);
    expect(r.sources).toContain('src-main/cli/commands/accounts.ts');
    expect(
      r.sources.filter((m) => /^src-(sandbox\/|main\/cli\/commands\/(?!accounts|index))/.test(m)),
    ).toEqual([]);
  });

  it('an executor pass loads neither undici nor the sandbox, MCP, web host or UI code (the idle daemon stays small)', async () => {
    const r = await postdesk(
      ['--base-url', sb.url, 'executor', '--once', '--folder', join(dir, 'automations')],
      {
        POSTDESK_API_KEY: sb.apiKey,
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.sources).toContain('src-main/core/executor/executor.ts');
    // undici (its WebAssembly parser alone kept ~13 MiB resident) comes with a proxy or the first upload only.
    expect(r.bundled.filter((p) => /^(undici|fastify|ws|ora|@modelcontextprotocol\/sdk)$/.test(p))).toEqual(
      [],
    );
    expect(r.packages.filter((u) => /\/(fastify|@modelcontextprotocol|ora|ws|undici)\//.test(u))).toEqual([]);
    expect(r.sources).toContain('src-main/core/api/http1.ts');
    expect(
      r.sources.filter((m) => /^src-(sandbox|renderer|preload)\/|^src-main\/(cli\/(web|mcp)|app)\//.test(m)),
    ).toEqual([]);
  });

  it('--sandbox loads the sandbox, from the build, when it starts one', async () => {
    const r = await postdesk(['--sandbox', 'accounts', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).accounts.length).toBeGreaterThan(0);
    expect(r.packages.some((u) => u.includes('/fastify/'))).toBe(true);
    expect(r.loaded.some((u) => u.includes('/src-sandbox/'))).toBe(false);
    expect(r.sources).toContain('src-sandbox/app.ts');
  });

  it('runs the sources through tsx when they are newer than the build', async () => {
    const { atime, mtime } = statSync(BUILT);
    try {
      utimesSync(BUILT, new Date('2000-01-01'), new Date('2000-01-01'));
      const r = await postdesk(['--version']);
      expect(r.code, r.err).toBe(0);
      expect(r.loaded.some((u) => u.endsWith('/src-main/cli/main.ts'))).toBe(true);
      expect(r.loaded).not.toContain(`file://${BUILT}`);
    } finally {
      utimesSync(BUILT, atime, mtime);
    }
    const again = await postdesk(['--version']);
    expect(again.loaded).toContain(`file://${BUILT}`);
  });
});
