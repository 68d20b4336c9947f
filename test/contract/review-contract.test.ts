import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BulkUpdateResponse } from '../../src-shared/api';
import type { TestSandbox } from '../helpers/sandbox';
import { FIXTURE_NOW, IDS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/**
 * A review of the sandbox against service-api.md, row by row: the 400 shapes each route's contract
 * names, the page-size defaults and the limits at their exact boundaries.
 */

const TIKTOK_AUTO = '77777777-7777-4777-8777-000000000001';
const fixture = demoFixture({
  automations: [
    {
      id: TIKTOK_AUTO,
      name: 'Draft to tiktok and instagram',
      execution_mode: 'draft',
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
      targets: [
        { social_account_id: IDS.accounts.tiktok, platform: 'tiktok' },
        { social_account_id: IDS.accounts.instagram, platform: 'instagram' },
      ],
    },
  ],
});

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(fixture);
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const target = (platform: 'x' | 'instagram' | 'linkedin') => ({
  social_account_id: IDS.accounts[platform],
  platform,
});
const minutesFromNow = (m: number) => new Date(Date.parse(FIXTURE_NOW) + m * 60_000).toISOString();

/** Sends raw text as a JSON body, as a client with a serialisation bug would. */
const rawJson = async (method: string, path: string, text: string, key: string = sb.apiKey) => {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const startRun = async (key = `k-${randomUUID()}`) => {
  const res = await sb.api('POST', `/api/agent/automations/${TIKTOK_AUTO}/start`, {
    body: { executor_id: IDS.executor, revision: 1, idempotency_key: key },
  });
  expect(res.status).toBe(200);
  return res.body as { run: { id: string }; run_token: string };
};

describe('a 400 has the shape its route names', () => {
  it('post creation answers an unparsable body with {error, issues}, no code', async () => {
    const res = await rawJson('POST', '/api/cli/posts', '{"caption": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringMatching(/body/), issues: { body: expect.any(String) } });
  });

  it('PATCH /api/cli/posts answers an unparsable body with INVALID_POST_UPDATE', async () => {
    const res = await rawJson('PATCH', '/api/cli/posts', '{id: 1}');
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_POST_UPDATE']);
  });

  it('complete-local answers every invalid output with INVALID_RUN_OUTPUT naming the field and limit', async () => {
    const { run, run_token } = await startRun();
    const path = `/api/agent/runs/${run.id}/complete-local`;
    const url = (i: number) => `https://cdn.example.com/${i}.jpg`;
    const cases: [unknown, RegExp][] = [
      [{ caption: 'c'.repeat(2201) }, /caption: .*2200/],
      [{}, /caption/],
      [{ caption: 'x', media_urls: Array.from({ length: 11 }, (_, i) => url(i)) }, /media_urls: .*10/],
      [{ caption: 'x', slides: Array.from({ length: 11 }, (_, i) => ({ url: url(i) })) }, /slides: .*10/],
      [{ caption: 'x', slides: [{ url: url(0), text: 't'.repeat(501) }] }, /slides\.0\.text: .*500/],
      [
        {
          caption: 'x',
          published_targets: Array.from({ length: 13 }, () => ({
            social_account_id: IDS.accounts.tiktok,
            platform: 'tiktok',
            direct_upload_id: randomUUID(),
          })),
        },
        /published_targets: .*12/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await sb.api('POST', path, { key: run_token, body });
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_RUN_OUTPUT']);
      expect(res.body.error).toMatch(message);
    }
    const unparsable = await rawJson('POST', path, '{"caption"', run_token);
    expect([unparsable.status, unparsable.body.code]).toEqual([400, 'INVALID_RUN_OUTPUT']);
    const after = await sb.api('GET', `/api/agent/runs/${run.id}?executor_id=${IDS.executor}`);
    expect(after.body.run.state).toBe('running');
    expect((await sb.control.state()).posts).toBe(0);
  });

  it('PATCH /api/cli/posts/bulk answers next as a string, as the contract types it', async () => {
    const created = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', scheduled_at: minutesFromNow(60), targets: [target('x')] },
    });
    const res = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: {
        updates: [
          { post_id: created.body.post.id, caption: 'new' },
          { post_id: randomUUID(), caption: 'missing' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = BulkUpdateResponse.parse(res.body);
    expect(body).toMatchObject({ total: 2, updated_count: 1, failed_count: 1 });
    expect(typeof body.next).toBe('string');
    const allOk = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: { updates: [{ post_id: created.body.post.id, caption: 'newer' }] },
    });
    expect(typeof allOk.body.next).toBe('string');
  });
});

describe('page-size defaults', () => {
  it('lists 50 posts and 50 articles by default, and up to 100 with limit', async () => {
    for (let i = 0; i < 51; i++) {
      await sb.api('POST', '/api/cli/posts', {
        body: { caption: `d${i}`, action: 'draft', targets: [target('x')] },
      });
      await sb.api('POST', '/api/cli/articles', {
        body: { title: `a${i}`, body_markdown: 'b', destinations: ['devto'] },
      });
    }
    const posts = await sb.api('GET', '/api/cli/posts');
    expect(posts.body.posts).toHaveLength(50);
    expect(posts.body.posts[0].caption).toBe('d50');
    expect((await sb.api('GET', '/api/cli/posts?limit=100')).body.posts).toHaveLength(51);
    expect((await sb.api('GET', '/api/cli/posts?limit=0')).body.error).toBe('limit: must be at least 1');
    expect((await sb.api('GET', '/api/cli/articles')).body.articles).toHaveLength(50);
    expect((await sb.api('GET', '/api/cli/articles?limit=100')).body.articles).toHaveLength(51);
  });

  it('inspects 100 bulk items by default', async () => {
    const batch_id = randomUUID();
    const item = (i: number) => ({
      item_key: `k${i}`,
      caption: `c${i}`,
      action: 'draft',
      targets: [target('x')],
    });
    const first = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: Array.from({ length: 100 }, (_, i) => item(i)) },
    });
    expect(first.status).toBe(201);
    await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id, items: [item(100)] } });
    const page = await sb.api('GET', `/api/cli/posts/bulk?batch_id=${batch_id}`);
    expect(page.body).toMatchObject({ total: 101, offset: 0, limit: 100 });
    expect(page.body.items).toHaveLength(100);
    expect(page.body.next).toBe(`/api/cli/posts/bulk?batch_id=${batch_id}&offset=100&limit=100`);
  });

  it('ranks 20 top posts in analytics by default, up to 100 with limit', async () => {
    for (let i = 0; i < 21; i++) {
      const res = await sb.api('POST', '/api/cli/posts', {
        body: { caption: `p${i}`, targets: [target('x')] },
      });
      expect(res.body.social_posts[0].status).toBe('posted');
    }
    await sb.control.advance(24 * 3_600_000);
    expect((await sb.api('GET', '/api/cli/analytics')).body.top_posts).toHaveLength(20);
    expect((await sb.api('GET', '/api/cli/analytics?limit=100')).body.top_posts).toHaveLength(21);
  });
});

describe('limits at their exact boundaries', () => {
  it('accepts an idempotency key of 200 characters and a failure message of 1000', async () => {
    const { run, run_token } = await startRun('k'.repeat(200));
    const failed = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      key: run_token,
      body: { error: 'e'.repeat(1000) },
    });
    expect(failed.status).toBe(200);
    expect(failed.body.run).toMatchObject({ state: 'failed', error: 'e'.repeat(1000) });
  });

  it('direct upload: 67108864 bytes and a title of 1 to 100 characters', async () => {
    const { run, run_token } = await startRun();
    const open = (title: string, length = 67_108_864) =>
      sb.api('POST', `/api/agent/runs/${run.id}/direct-upload`, {
        key: run_token,
        body: {
          social_account_id: IDS.accounts.tiktok,
          title,
          content_type: 'video/mp4',
          content_length: length,
          content_sha256: 'a'.repeat(64),
        },
      });
    const empty = await open('');
    expect([empty.status, empty.body.error]).toEqual([400, expect.stringMatching(/^title: .*1 character/)]);
    const long = await open('t'.repeat(101));
    expect([long.status, long.body.error]).toEqual([400, 'title: must be at most 100 characters']);
    const ok = await open('t'.repeat(100));
    expect(ok.status).toBe(200);
    expect(ok.body.session.upload_headers['content-length']).toBe('67108864');
  });

  it('PATCH: scheduled_time (the alias) must be in the future too, and now is not the future', async () => {
    const created = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', scheduled_at: minutesFromNow(60), targets: [target('x'), target('linkedin')] },
    });
    const id = created.body.social_posts[0].id as string;
    for (const body of [{ scheduled_time: minutesFromNow(-1) }, { scheduled_at: FIXTURE_NOW }]) {
      const res = await sb.api('PATCH', '/api/cli/posts', { body: { id, ...body } });
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_POST_UPDATE']);
      expect(res.body.error).toMatch(/scheduled_at: must be in the future/);
    }
    const moved = await sb.api('PATCH', '/api/cli/posts', {
      body: { id, scheduled_time: minutesFromNow(90) },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.social_posts.map((d: { scheduled_at: string }) => d.scheduled_at)).toEqual([
      minutesFromNow(90),
      minutesFromNow(90),
    ]);
  });
});

describe('control answers', () => {
  it('reset answers exactly {"ok": true}; state carries every named member', async () => {
    const res = await sb.api('POST', '/_sandbox/reset', { key: null, body: fixture });
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    const state = await sb.control.state();
    expect(state).toMatchObject({
      posts: 0,
      deliveries: {},
      batches: 0,
      media: { pending: 0, uploaded: 0 },
      articles: {},
      executors: 1,
      runs: {},
    });
  });
});
