import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatePostResponse, Delivery } from '../../src-shared/api/posts';
import { whyNot } from '../../src-shared/api/delivery-transitions';
import { runCliHere } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * The command line against the sandbox over HTTP: what the transition table refuses is refused before sending
 * (exit 2, the app's words, the post untouched), and each platform's rules warn or refuse (X past 280).
 */

let sb: TestSandbox;
let dataDir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.control.reset(demoFixture());
  rmSync(dataDir ?? '/nonexistent', { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-rules-'));
});

const cli = (...args: string[]) =>
  runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: TEST_KEYS.a,
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
  });

async function publishedToX(caption: string): Promise<Delivery> {
  const res = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
    body: { caption, targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
  });
  expect(res.status).toBe(201);
  const list = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=posted&limit=100');
  return list.body.posts.find((p) => p.id === res.body.social_posts[0]!.id)!;
}

describe('postdesk posts delete / update refuse what the transition table refuses, before sending', () => {
  it('refuses to delete a published post (exit 2), in the words the app shows, and it stays', async () => {
    const d = await publishedToX('out already');
    const r = await cli('posts', 'delete', d.id);
    expect(r.code).toBe(2);
    expect(r.err).toContain(whyNot('posted', 'delete', 'X') as string);
    expect(r.err).toContain('Published posts stay on X; remove them there.');
    // Nothing was sent: the service never answered 409, and the delivery is still there.
    expect(r.err).not.toContain('409');
    const after = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=posted&limit=100');
    expect(after.body.posts.some((p) => p.id === d.id)).toBe(true);
  });

  it('refuses to edit or cancel a published post, and by its parent id too', async () => {
    const d = await publishedToX('out too');
    const edit = await cli('posts', 'update', d.post_id, '--caption', 'new words');
    expect(edit.code).toBe(2);
    expect(edit.err).toContain('This post is already published on X; make a new post instead.');
    const cancel = await cli('posts', 'update', d.id, '--status', 'draft');
    expect(cancel.code).toBe(2);
    expect(cancel.err).toContain('This post is already published on X');
    const after = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=posted&limit=100');
    expect(after.body.posts.find((p) => p.id === d.id)?.caption).toBe('out too');
  });

  it('still deletes a draft and edits a scheduled post', async () => {
    const draft = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
      body: {
        caption: 'a draft',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const del = await cli('posts', 'delete', draft.body.social_posts[0]!.id as string);
    expect(del.code).toBe(0);
    const later = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
      body: {
        caption: 'later',
        scheduled_at: '2031-01-01T09:00:00Z',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const upd = await cli('posts', 'update', later.body.post.id as string, '--caption', 'later, edited');
    expect(upd.code).toBe(0);
  });
});

describe('postdesk posts update --caption and the platforms’ rules', () => {
  it('warns that X takes 280 characters when a scheduled post is edited past it, and sends the edit', async () => {
    const later = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
      body: {
        caption: 'short for now',
        scheduled_at: '2031-01-01T09:00:00Z',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const caption = 'e'.repeat(300);
    const r = await cli('posts', 'update', later.body.post.id as string, '--caption', caption);
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      'warning: X takes at most 280 characters; this caption counts 300 there (20 over).',
    );
    const list = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=scheduled&limit=100');
    expect(list.body.posts.find((p) => p.post_id === later.body.post.id)?.caption).toBe(caption);
  });

  it('says nothing of a caption within every limit', async () => {
    const later = await sb.api<CreatePostResponse>('POST', '/api/cli/posts', {
      body: {
        caption: 'short',
        scheduled_at: '2031-01-01T09:00:00Z',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const r = await cli('posts', 'update', later.body.post.id as string, '--caption', 'f'.repeat(280));
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('warning');
  });
});

describe('postdesk posts create and the platforms’ rules', () => {
  it('warns that X takes 280 characters when a 500-character post goes out now, and sends it', async () => {
    const caption = 'a'.repeat(500);
    const r = await cli('posts', 'create', '--now', '-c', caption, '-t', `x:${IDS.accounts.x}`);
    expect(r.code).toBe(0);
    expect(r.err).toContain('X takes at most 280 characters; this caption counts 500 there (220 over).');
    const posted = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=posted&limit=100');
    expect(posted.body.posts.some((p) => p.caption === caption)).toBe(true);
  });

  it('says nothing at 280', async () => {
    const r = await cli('posts', 'create', '--draft', '-c', 'b'.repeat(280), '-t', `x:${IDS.accounts.x}`);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('X takes at most');
  });

  it('refuses an Instagram post with no media (exit 2), naming Instagram, and sends nothing', async () => {
    const r = await cli(
      'posts',
      'create',
      '--draft',
      '-c',
      'words only',
      '-t',
      `instagram:${IDS.accounts.instagram}`,
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain('Instagram needs at least 1 image or video; this post has none.');
    const drafts = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=draft&limit=100');
    expect(drafts.body.posts.some((p) => p.caption === 'words only')).toBe(false);
  });

  it('refuses an image and a video together on X', async () => {
    const r = await cli(
      'posts',
      'create',
      '--draft',
      '-c',
      'mixed',
      '-t',
      `x:${IDS.accounts.x}`,
      '-m',
      'https://cdn.example.com/a.jpg',
      '-m',
      'https://cdn.example.com/b.mp4',
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'X takes images or a video, not both in one post; this one has 1 image and 1 video.',
    );
  });
});

describe('postdesk bulk import --dry-run knows what the app knows', () => {
  it('flags an unknown account and a YouTube row by row and column, and warns of X past 280', async () => {
    const file = join(dataDir, 'posts.csv');
    const stranger = '99999999-9999-4999-8999-999999999999';
    writeFileSync(
      file,
      [
        'caption,targets,action',
        `fine,x:${IDS.accounts.x},draft`,
        `nobody,x:${stranger},draft`,
        `to youtube,youtube:${IDS.accounts.youtube},draft`,
        `${'c'.repeat(300)},x:${IDS.accounts.x},draft`,
        `no picture,instagram:${IDS.accounts.instagram},draft`,
      ].join('\n'),
    );
    const r = await cli('bulk', 'import', file, '--dry-run');
    expect(r.code).toBe(2);
    const all = r.out + r.err;
    expect(all).toContain(`row 2 (line 3), targets: no connected account has the id ${stranger}`);
    expect(all).toMatch(/row 3 \(line 4\), targets: YouTube cannot be reached by posts/);
    expect(all).toContain('row 5 (line 6), media: Instagram needs at least 1 image or video');
    expect(r.err).toContain('warning: row 4 (line 5), caption: X takes at most 280 characters');
    // No field path anywhere.
    expect(all).not.toMatch(/targets\.\d/);
  });

  it("says a row the service refused in words, naming the column and the entry, never the service's path", async () => {
    const file = join(dataDir, 'refused.csv');
    const neverUploaded = '99999999-9999-4999-8999-999999999999';
    writeFileSync(
      file,
      ['caption,targets,action,media', `lost,x:${IDS.accounts.x},draft,${neverUploaded}`].join('\n'),
    );
    const r = await cli('bulk', 'import', file);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/row 1: media, the 1st entry: /);
    expect(r.out).not.toContain('media.0');
    const batch = /postdesk bulk resubmit (\S+)/.exec(r.out)?.[1] as string;
    const status = await cli('bulk', 'status', batch);
    expect(status.out).toContain('media, the 1st entry: ');
    expect(status.out).not.toContain('media.0');
  });

  it('says "imported before" at the dry run of a file imported already', async () => {
    const file = join(dataDir, 'again.csv');
    writeFileSync(file, ['caption,targets,action', `once,x:${IDS.accounts.x},draft`].join('\n'));
    expect((await cli('bulk', 'import', file)).code).toBe(0);
    const dry = await cli('bulk', 'import', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out + dry.err).toContain('imported before: these posts were imported on');
  });
});
