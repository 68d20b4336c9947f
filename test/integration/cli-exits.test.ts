import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { VERSION } from '../../src-main/cli/version';
import { scaled } from '../helpers/timeouts';

/**
 * Exits and messages of the command line for local input problems and service refusals: each names the flag or
 * the file and says it in the user's words (never an operation's internal name, an errno or a temp name), and
 * exits with the code docs/cli.md gives. Against a real sandbox over HTTP.
 */
let sb: TestSandbox;
let dir: string;

const env = (extra: Record<string, string> = {}) => ({
  POSTDESK_DATA_DIR: join(dir, 'data'),
  POSTDESK_API_KEY: TEST_KEYS.a,
  POSTDESK_HTTP_RETRIES: '0',
  PATH: process.env.PATH,
  TZ: 'UTC',
  ...extra,
});
const cli = (...args: string[]) => runCliHere(['--base-url', sb.url, ...args], env());

/** Internal names that must never reach a person: operation names, field paths, errnos, temp names. */
const INTERNAL =
  /\b(listAccounts|listPosts|createPost|updatePost|deletePost|createArticle|bulkCreate|analytics failed|body_markdown|EACCES|ENOENT|ENOTDIR|EISDIR)\b|\.partial\b/;

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');

/**
 * The CLI in its own process as a user who may not read a 0000 file: as root (who reads anything) it runs as
 * nobody, so the permission is really enforced.
 */
function runAsReader(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const asRoot = process.getuid?.() === 0;
  const vars: Record<string, string | undefined> = {
    ...env({ HOME: dir, POSTDESK_DATA_DIR: join(dir, 'data-nobody'), ...extra }),
  };
  // A key file is only read when no key is given.
  if (extra.POSTDESK_API_KEY_FILE) delete vars.POSTDESK_API_KEY;
  const child = spawn(process.execPath, [BIN, '--base-url', sb.url, ...args], {
    env: vars,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((r) => child.on('close', (code) => r({ code, out })));
}

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-exits-'));
  // The spawned reader (nobody, when the tests run as root) must reach its files and data directory.
  chmodSync(dir, 0o777);
  mkdirSync(join(dir, 'data-nobody'), { mode: 0o777 });
  chmodSync(join(dir, 'data-nobody'), 0o777);
}, scaled(60_000));

afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local input problems exit 2, naming the file or flag', () => {
  it(
    'an unreadable file: articles --body-file, bulk import, media check',
    async () => {
      const body = join(dir, 'secret.md');
      writeFileSync(body, '# hi\n');
      chmodSync(body, 0o000);
      const article = await runAsReader([
        'articles',
        'create',
        '--title',
        't',
        '--body-file',
        body,
        '-d',
        'devto',
      ]);
      expect(article.code, article.out).toBe(2);
      expect(article.out).toContain(body);
      expect(article.out).toContain('body-file');
      expect(article.out).not.toMatch(INTERNAL);
    },
    scaled(30_000),
  );

  it(
    'a bulk CSV naming an unreadable file flags that row in the dry run instead of stopping it',
    async () => {
      const png = join(dir, 'locked.png');
      writeFileSync(png, Buffer.from('89504e470d0a1a0a', 'hex'));
      chmodSync(png, 0o000);
      const csv = join(dir, 'rows.csv');
      writeFileSync(
        csv,
        [
          'caption,targets,scheduled_at,media',
          `one,x:${IDS.accounts.x},2035-01-01T09:00:00Z,locked.png`,
          `two,x:${IDS.accounts.x},2035-01-01T10:00:00Z,`,
        ].join('\n'),
      );
      chmodSync(csv, 0o644);
      const run = await runAsReader(['bulk', 'import', csv, '--dry-run']);
      expect(run.out).toMatch(/row 1 \(line 2\), media: locked\.png: you are not allowed to read/);
      expect(run.out).not.toMatch(INTERNAL);
      expect(run.code).toBe(2);
    },
    scaled(30_000),
  );

  it('sandbox --seed missing.json, a seed that is not JSON, --port abc', async () => {
    const missing = await cli('sandbox', '--seed', join(dir, 'missing.json'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing.json');
    expect(missing.err).not.toMatch(INTERNAL);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{bad');
    const notJson = await cli('sandbox', '--seed', bad);
    expect(notJson.code).toBe(2);
    expect(notJson.err).toContain('bad.json');
    const port = await cli('sandbox', '--port', 'abc');
    expect(port.code).toBe(2);
    expect(port.err).toContain('--port');
  });

  it('a post id that is no id at all is refused before any request, as a bad --target is', async () => {
    const before = await sb.control.state();
    const run = await cli('posts', 'delete', 'nonsense');
    expect(run.code).toBe(2);
    expect(run.err).toContain('"nonsense"');
    expect(run.err).not.toMatch(INTERNAL);
    for (const args of [
      ['posts', 'show', 'nonsense'],
      ['bulk', 'status', 'nonsense'],
      ['inbox', 'approve', 'nonsense'],
    ]) {
      const other = await cli(...args);
      expect(other.code, args.join(' ')).toBe(2);
      expect(other.err, args.join(' ')).toContain('"nonsense"');
    }
    expect(await sb.control.state()).toEqual(before);
  });

  it('an export to a folder that does not exist names the folder, never a temp name, and leaves nothing', async () => {
    const target = join(dir, 'no-such-folder', 'posts.csv');
    const run = await cli('export', 'posts', '-o', target);
    expect(run.code).toBe(2);
    expect(run.err).toContain(join(dir, 'no-such-folder'));
    expect(run.err).not.toMatch(INTERNAL);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });
});

describe('messages in the user words', () => {
  it('a service refusal names what was being done, not the operation', async () => {
    const run = await cli('posts', 'delete', '01234567-89ab-4cde-8f01-23456789abcd');
    expect(run.code).toBe(3);
    expect(run.err).toMatch(/could not delete the post/);
    expect(run.err).not.toMatch(INTERNAL);
  });

  it('a field problem names the flag: --caption, --body', async () => {
    const caption = await cli(
      'posts',
      'create',
      '-c',
      'a'.repeat(2201),
      '-t',
      `x:${IDS.accounts.x}`,
      '--draft',
    );
    expect(caption.code).toBe(2);
    expect(caption.err).toMatch(/--caption: must be at most 2200 characters/);
    expect(caption.err).not.toMatch(INTERNAL);
    const body = await cli('articles', 'create', '--title', 't', '--body', '', '-d', 'devto');
    expect(body.code).toBe(2);
    expect(body.err).toMatch(/--body\b/);
    expect(body.err).not.toMatch(INTERNAL);
  });

  it('a wrong key says how to fix it', async () => {
    const run = await runCliHere(
      ['--base-url', sb.url, 'accounts'],
      env({ POSTDESK_API_KEY: 'pd_wrong_key' }),
    );
    expect(run.code).toBe(3);
    expect(run.err).toContain('postdesk login');
    expect(run.err).toContain('POSTDESK_API_KEY');
    expect(run.err).not.toMatch(INTERNAL);
  });
});

describe('--version', () => {
  it('works beside the global options', async () => {
    for (const args of [
      ['--json', '--version'],
      ['--version', '--verbose'],
      ['--base-url', 'http://127.0.0.1:9', '-V'],
      ['--sandbox', '--version'],
    ]) {
      const run = await runCliHere(args, env());
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.out.trim(), args.join(' ')).toBe(VERSION);
    }
    // Not a command's own --version.
    const skills = await cli('skills', 'show', 'test-skill', '--version', '9.9.9');
    expect(skills.out.trim()).not.toBe(VERSION);
  });
});

describe('the exit-code table', () => {
  it('lists the codes the CLI uses', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Exit codes'));
    expect(table).toMatch(/\| 2 \| bad input/);
    expect(table).toMatch(/\| 3 \| the service refused/);
  });
});

describe('POSTDESK_API_KEY_FILE', () => {
  it('an unreadable or missing key file is bad input naming the variable and the file, in words', async () => {
    const key = join(dir, 'key');
    writeFileSync(key, 'pd_test_owner_a_valid_key_000000001\n');
    // Private to its owner (root, when the reader runs as nobody), or to no one at all.
    chmodSync(key, process.getuid?.() === 0 ? 0o600 : 0o000);
    const locked = await runAsReader(['accounts'], { POSTDESK_API_KEY_FILE: key });
    expect(locked.code, locked.out).toBe(2);
    expect(locked.out).toContain(key);
    expect(locked.out).toContain('POSTDESK_API_KEY_FILE');
    expect(locked.out).not.toMatch(INTERNAL);

    const gone = join(dir, 'no-key');
    const missing = await runCliHere(['--base-url', sb.url, 'accounts'], {
      ...env(),
      POSTDESK_API_KEY: '',
      POSTDESK_API_KEY_FILE: gone,
    });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`${gone}) does not exist`);
    expect(missing.err).not.toMatch(INTERNAL);
  });
});

describe('nested refusals', () => {
  it('a refusal inside another message (status: reachable?) is told in the user words', async () => {
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/accounts'] });
    try {
      const run = await cli('status');
      expect(run.out).toMatch(
        /no: could not list the accounts: .*\(the service answered 503 SANDBOX_FAULT\)/,
      );
      expect(run.out + run.err).not.toMatch(INTERNAL);
    } finally {
      await sb.control.faults({});
    }
  });
});
