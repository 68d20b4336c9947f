import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/program';
import { mediaFixtures, type MediaFixtures } from '../helpers/media-fixtures';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * What a newcomer ran into (issue 13), each against a real sandbox over HTTP, through the same code path as
 * `postdesk …` (runCli with captured streams).
 */
let sb: TestSandbox;
let dir: string;
let fx: MediaFixtures;

beforeAll(async () => {
  // Real time, so "in the past" means the same to the CLI and to the sandbox.
  sb = await startTestSandbox(demoFixture({ now: null }));
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-newcomer-'));
  fx = mediaFixtures();
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runCli(args, {
    stdout,
    stderr,
    stdin: Readable.from(['']),
    env: {
      PATH: process.env.PATH,
      POSTDESK_DATA_DIR: join(dir, 'data'),
      POSTDESK_BASE_URL: sb.url,
      POSTDESK_API_KEY: TEST_KEYS.a,
      POSTDESK_KEYCHAIN_SERVICE: 'postdesk-test-newcomer',
      POSTDESK_HTTP_RETRIES: '0',
      NO_COLOR: '1',
      ...env,
    },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = (): any => JSON.parse(out);
  return { code, out, err, json };
}

const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

/** Nothing with this caption was written to the outbox: the local refusals come before it. */
async function notQueued(caption: string): Promise<void> {
  const r = await cli(['--json', 'outbox', 'list', '--all']);
  expect(r.code, r.err).toBe(0);
  expect(r.json().entries.filter((e: { caption: string }) => e.caption === caption)).toEqual([]);
}

const TIKTOK = `tiktok:${IDS.accounts.tiktok}`;
// A text-only post: LinkedIn takes one (TikTok needs a video or photos, and the CLI refuses it without).
const LINKEDIN = `linkedin:${IDS.accounts.linkedin}`;

describe('media convert never replaces a file unasked', () => {
  it('refuses when <name>.mp4 exists, replaces it with --force and says so', async () => {
    const mov = join(dir, 'holiday.mov');
    copyFileSync(fx.mov, mov);
    const existing = file('holiday.mp4', 'my edited video, not to be lost');
    const refused = await cli(['media', 'convert', mov]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${existing} already exists`);
    expect(refused.err).toContain('--force');
    expect(readFileSync(existing, 'utf8')).toBe('my edited video, not to be lost');

    const forced = await cli(['media', 'convert', mov, '--force']);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toContain('replaced the file that was there');
    expect(readFileSync(existing).subarray(4, 8).toString()).toBe('ftyp');

    const elsewhere = await cli(['--json', 'media', 'convert', mov, '-o', join(dir, 'other.mp4')]);
    expect(elsewhere.code, elsewhere.err).toBe(0);
    expect(elsewhere.json()).toMatchObject({ output: join(dir, 'other.mp4'), replaced: false });
  });

  it('explains the audio share when a size cannot fit', async () => {
    const r = await cli(['media', 'convert', fx.mov, '-o', join(dir, 'tiny.mp4'), '--max-size', '4KiB']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/of which the audio track takes 64 kbit\/s/);
    expect(r.err).toMatch(/It fits in about .*without the audio track/);
  });
});

describe('posts show, and unknown subcommands', () => {
  it('shows one post with its deliveries, by post id or delivery id (`get` too)', async () => {
    const created = await cli([
      '--json',
      'posts',
      'create',
      '-c',
      'shown post',
      '-t',
      LINKEDIN,
      '-t',
      `x:${IDS.accounts.x}`,
      '--draft',
    ]);
    expect(created.code, created.err).toBe(0);
    const { post_id: postId, social_post_ids: deliveries } = created.json();
    const byPost = await cli(['--json', 'posts', 'show', postId]);
    expect(byPost.code, byPost.err).toBe(0);
    expect(byPost.json()).toMatchObject({ post_id: postId, caption: 'shown post' });
    expect(
      byPost
        .json()
        .deliveries.map((d: { id: string }) => d.id)
        .sort(),
    ).toEqual([...deliveries].sort());
    const byDelivery = await cli(['posts', 'get', deliveries[0]]);
    expect(byDelivery.code, byDelivery.err).toBe(0);
    expect(byDelivery.out).toContain(postId);
    expect(byDelivery.out).toContain('linkedin');
    expect(byDelivery.out).toContain('x ');
  });

  it('answers an unknown subcommand with an error and a suggestion, not "too many arguments"', async () => {
    const typo = await cli(['posts', 'shwo', 'abc']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("unknown command 'shwo'");
    expect(typo.err).toContain('Did you mean show?');
    expect(typo.err).not.toContain('too many arguments');
    const other = await cli(['posts', 'frobnicate']);
    expect(other.code).toBe(2);
    expect(other.err).toContain("unknown command 'frobnicate'");
    const found = await cli(['posts', 'show', '99999999-9999-4999-8999-999999999999']);
    expect(found.code).toBe(3);
    expect(found.err).toContain('no post or delivery 99999999-9999-4999-8999-999999999999');
  });

  it('points `media upload` at `postdesk upload`', async () => {
    const r = await cli(['media', 'upload', fx.jpeg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Did you mean postdesk upload?');
  });
});

describe('bulk', () => {
  it('says "not found" for a batch the service does not have, exit 3, with {"error"} in --json', async () => {
    const human = await cli(['bulk', 'status', '99999999-9999-4999-8999-999999999999']);
    expect(human.code).toBe(3);
    expect(human.err).toContain('batch 99999999-9999-4999-8999-999999999999 not found');
    const json = await cli(['--json', 'bulk', 'status', '99999999-9999-4999-8999-999999999999']);
    expect(json.code).toBe(3);
    expect(json.json().error).toMatchObject({
      name: 'NotFoundError',
      message: expect.stringContaining('not found'),
    });
  });

  it('refuses an empty file, a header alone, and a header without caption or targets, and records nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['empty.csv', '', /no posts/],
      ['header.csv', 'caption,targets\n', /no posts/],
      ['no-targets.csv', 'caption,title\nhello,t\n', /no "targets" column/],
      ['no-caption.csv', `targets\n${TIKTOK}\n`, /no "caption" column/],
      ['empty.json', '[]', /no posts/],
    ];
    const before = (await sb.control.state()).batches;
    for (const [name, text, why] of cases) {
      const path = file(name, text);
      for (let run = 0; run < 2; run++) {
        // Twice: a refused file is not remembered as an import that "was started before".
        const r = await cli(['bulk', 'import', path]);
        expect(r.code, `${name}: ${r.out}${r.err}`).toBe(2);
        expect(r.out).toMatch(why);
        expect(r.out).not.toContain('started before');
      }
    }
    expect((await sb.control.state()).batches).toBe(before);
  });

  it('gives the line and column of a broken JSON file, exit 2', async () => {
    const path = file('broken.json', '[{"caption": "x",\n  "targets": ["tiktok:abc"]\n  oops]\n');
    const r = await cli(['bulk', 'import', path]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/line 3 column 3/);
  });

  it('prints its JSON in snake_case, like the service', async () => {
    const path = file('two.csv', `caption,targets,action\none,${LINKEDIN},draft\ntwo,${LINKEDIN},draft\n`);
    const r = await cli(['--json', 'bulk', 'import', path]);
    expect(r.code, r.err).toBe(0);
    const report = r.json();
    expect(report).toMatchObject({ state: 'done', created: 2, failed_rows: [] });
    expect(report.import_id).toEqual(expect.any(String));
    expect(report.batches[0].batch_id).toEqual(expect.any(String));
    const keys: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          keys.push(k);
          walk(x);
        }
    };
    walk(report);
    const status = await cli(['--json', 'bulk', 'status', report.batches[0].batch_id]);
    walk(status.json());
    expect(keys.filter((k) => /[a-z][A-Z]/.test(k))).toEqual([]);
    expect(status.json()).toMatchObject({
      batch_id: report.batches[0].batch_id,
      import_id: report.import_id,
    });
  });
});

describe('bad input known locally: exit 2, nothing queued', () => {
  it('a past --at, an unknown account, an account of another platform, YouTube', async () => {
    const cases: [string[], RegExp][] = [
      [['--at', '2020-01-01T09:00:00Z', '-t', TIKTOK], /at: 2020-01-01T09:00:00Z is in the past/],
      [['--draft', '-t', 'tiktok:99999999-9999-4999-8999-999999999999'], /no connected account has the id/],
      [['--draft', '-t', `x:${IDS.accounts.tiktok}`], /is a tiktok account, not x/],
      [['--draft', '-t', `youtube:${IDS.accounts.youtube}`], /youtube is reached through automations only/],
    ];
    for (const [args, why] of cases) {
      const r = await cli(['posts', 'create', '-c', 'refused here', ...args]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(why);
    }
    await notQueued('refused here');
  });

  it('a --status the contract does not list, an invalid --base-url (named)', async () => {
    const status = await cli(['posts', 'list', '--status', 'published']);
    expect(status.code).toBe(2);
    expect(status.err).toContain('Allowed choices are draft, scheduled, retry_scheduled, posted, failed');
    const base = await cli(['--base-url', 'localhost:4010', 'accounts']);
    expect(base.code).toBe(2);
    expect(base.err).toContain("option '--base-url <url>'");
  });

  it('missing files, friendly, for every command that reads one', async () => {
    const missing = join(dir, 'nowhere', 'gone.csv');
    const cases = [
      ['bulk', 'import', missing],
      ['bulk', 'update', missing],
      ['articles', 'create', '--title', 't', '--body-file', missing, '-d', 'devto'],
      ['media', 'convert', missing],
      ['media', 'check', missing],
    ];
    for (const args of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(`${r.out}${r.err}`, args.join(' ')).toContain(`no such file`);
      expect(`${r.out}${r.err}`, args.join(' ')).not.toContain('ENOENT');
    }
  });

  it('a misspelt required option is an unknown option with a suggestion', async () => {
    const r = await cli(['posts', 'create', '--captoin', 'x', '--draft', '-t', TIKTOK]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown option '--captoin'");
    expect(r.err).toContain('Did you mean --caption?');
    expect(r.err).not.toContain('required option');
  });

  it('--wait abc says what it takes', async () => {
    const r = await cli(['posts', 'create', '-c', 'x', '--now', '-t', TIKTOK, '--wait', 'abc']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--wait must be a whole number of seconds from 1 to 3600, not "abc"');
  });
});

describe('what the service refuses, and how it is shown', () => {
  it('a refused post is reported on stderr, exit 3', async () => {
    const r = await cli([
      'posts',
      'create',
      '-c',
      'refused by the service',
      '-t',
      TIKTOK,
      '--draft',
      '-m',
      '99999999-9999-4999-8999-999999999999',
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toContain('the service refused the post');
    expect(r.out).not.toContain('refused');
  });

  it('accounts marks YouTube as reachable through automations only', async () => {
    const json = await cli(['--json', 'accounts']);
    const youtube = json.json().accounts.find((a: { platform: string }) => a.platform === 'youtube');
    expect(youtube).toMatchObject({ id: IDS.accounts.youtube, reachable_through: 'automations only' });
    const human = await cli(['accounts']);
    expect(human.out).toMatch(/youtube .*automations only/);
  });

  it('the top posts table shows the platform of each row', async () => {
    const r = await cli([
      'posts',
      'create',
      '-c',
      'everywhere',
      '-t',
      LINKEDIN,
      '-t',
      `x:${IDS.accounts.x}`,
      '--now',
    ]);
    expect(r.code, r.err).toBe(0);
    const a = await cli(['analytics']);
    expect(a.code, a.err).toBe(0);
    const top = a.out.slice(a.out.indexOf('top posts'));
    expect(top).toContain('platform');
    const rows = top.split('\n').filter((l) => l.includes(r.out.match(/post (\S+)/)![1]!));
    expect(
      rows.map((l) => (l.includes(' linkedin ') ? 'linkedin' : l.includes(' x ') ? 'x' : '?')).sort(),
    ).toEqual(['linkedin', 'x']);
  });

  it('articles publish ID publishes that draft', async () => {
    const draft = await cli([
      '--json',
      'articles',
      'create',
      '--title',
      'Draft one',
      '--body',
      '# Hi',
      '-d',
      'devto',
    ]);
    expect(draft.code, draft.err).toBe(0);
    const id = draft.json().article.id as string;
    const pub = await cli(['--json', 'articles', 'publish', id]);
    expect(pub.code, pub.err).toBe(0);
    expect(pub.json()).toMatchObject({
      article: { title: 'Draft one', status: 'published' },
      draft_id: id,
      draft_removed: true,
    });
    const drafts = await cli(['--json', 'articles', 'list', '--status', 'draft']);
    expect(drafts.json().articles.map((a: { id: string }) => a.id)).not.toContain(id);
    const unknown = await cli(['articles', 'publish', '99999999-9999-4999-8999-999999999999']);
    expect(unknown.code).toBe(3);
  });
});

describe('--sandbox', () => {
  it('says the public URLs of a sandbox started for one command are temporary', async () => {
    const env = { POSTDESK_DATA_DIR: join(dir, 'offline'), POSTDESK_BASE_URL: '', POSTDESK_API_KEY: '' };
    const json = await cli(['--sandbox', '--json', 'upload', fx.jpeg], env);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out.trim().split('\n')[0]!)).toMatchObject({ public_url_temporary: true });
    const human = await cli(['--sandbox', 'upload', fx.png], env);
    expect(human.code, human.err).toBe(0);
    expect(human.err).toContain('the public URLs are temporary');
  });
});

describe('media check', () => {
  it('describes a text file named .png as not an image', async () => {
    const fake = file('notes.png', 'just some text, not a picture\n');
    const r = await cli(['media', 'check', fake]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('notes.png: not an image (the bytes are not PNG, JPEG or WebP)');
    expect(r.out).not.toContain('0×0');
    expect(r.out).not.toContain('unrecognised data');
  });
});
