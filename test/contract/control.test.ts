import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
  jsonOf,
} from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const createPost = () =>
  sb.api('POST', '/api/cli/posts', {
    body: { caption: 'c', action: 'draft', targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
  });

describe('POST /_sandbox/reset', () => {
  it('wipes all state and loads the fixture', async () => {
    await createPost();
    expect((await sb.control.state()).posts).toBe(1);
    const res = await sb.api('POST', '/_sandbox/reset', {
      key: null,
      body: demoFixture({ now: '2031-05-05T00:00:00.000Z' }),
    });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(await sb.control.state()).toMatchObject({
      posts: 0,
      deliveries: {},
      batches: 0,
      media: { pending: 0, uploaded: 0 },
    });
    expect(await sb.control.clock()).toBe('2031-05-05T00:00:00.000Z');
    const bad = await sb.api('POST', '/_sandbox/reset', {
      key: null,
      body: { owners: [{ id: 'o', accounts: [{ id: 'nope', platform: 'x', name: 'n' }] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/fixture\.owners\.0\.accounts\.0\.id: must be a valid uuid/);
    expect(await sb.control.clock()).toBe('2031-05-05T00:00:00.000Z');
  });

  it('follows real time without a fixture now', async () => {
    await sb.control.reset(demoFixture({ now: null }));
    const res = await sb.api('GET', '/_sandbox/clock', { key: null });
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(5_000);
    expect(res.body.virtual).toBe(false);
  });
});

describe('/_sandbox/clock', () => {
  it('sets and advances, and refuses to move backwards', async () => {
    expect(await sb.control.advance(90_000)).toBe('2030-01-01T12:01:30.000Z');
    expect(await sb.control.setNow('2030-01-02T00:00:00Z')).toBe('2030-01-02T00:00:00.000Z');
    const back = await sb.api('POST', '/_sandbox/clock', { key: null, body: { now: FIXTURE_NOW } });
    expect(back.status).toBe(400);
    expect(back.body.error).toMatch(/backwards/);
    expect(await sb.control.clock()).toBe('2030-01-02T00:00:00.000Z');
    expect((await sb.api('POST', '/_sandbox/clock', { key: null, body: { advance_ms: -1 } })).status).toBe(
      400,
    );
  });

  it('runs due work before it answers', async () => {
    const at = new Date(Date.parse(FIXTURE_NOW) + 60_000).toISOString();
    await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'c',
        scheduled_at: at,
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    await sb.control.setNow(at);
    expect((await sb.control.state()).deliveries).toEqual({ posted: 1 });
  });
});

describe('/_sandbox/faults', () => {
  it('error_rate answers 503 SANDBOX_FAULT before the handler: nothing changes', async () => {
    expect(await sb.control.faults({ error_rate: 1 })).toEqual({ error_rate: 1 });
    const res = await createPost();
    expect(res).toMatchObject({ status: 503, body: { code: 'SANDBOX_FAULT' } });
    expect((await sb.control.state()).posts).toBe(0);
    expect((await sb.api('GET', '/api/skills', { key: null })).status).toBe(503);
    expect(await sb.control.faults({})).toEqual({});
    expect((await createPost()).status).toBe(201);
  });

  it('reset_rate commits then drops the connection before any byte', async () => {
    await sb.control.faults({ reset_rate: 1 });
    await expect(createPost()).rejects.toThrow();
    await sb.control.faults({});
    expect((await sb.control.state()).posts).toBe(1);
  });

  it('applies only to matching path prefixes', async () => {
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts'] });
    expect((await sb.api('GET', '/api/cli/posts')).status).toBe(503);
    expect(
      (await sb.api('GET', '/api/cli/posts/bulk?batch_id=6f1c0a52-8f7e-4b8e-9d3a-0b1c2d3e4f50')).status,
    ).toBe(503);
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(200);
    expect((await sb.control.state()).posts).toBe(0);
  });

  it('repeats the same sequence for the same seed', async () => {
    const run = async () => {
      await sb.control.faults({ error_rate: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await sb.api('GET', '/api/cli/accounts')).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it('delays responses by latency_ms', async () => {
    await sb.control.faults({ latency_ms: 150 });
    const started = performance.now();
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await sb.control.faults({});
  });

  it('validates the settings', async () => {
    const res = await sb.api('POST', '/_sandbox/faults', { key: null, body: { error_rate: 2 } });
    expect(res).toMatchObject({ status: 400, body: { error: 'error_rate: must be at most 1' } });
  });
});

describe('/_sandbox/state', () => {
  it('counts every kind of record over all owners', async () => {
    await createPost();
    await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'b', targets: [{ social_account_id: IDS.accountB, platform: 'x' }] },
      key: TEST_KEYS.b,
    });
    await sb.api('POST', '/api/cli/articles', {
      body: { title: 't', body_markdown: 'b', destinations: ['x'], action: 'publish' },
    });
    const state = await sb.control.state();
    expect(state).toMatchObject({
      posts: 2,
      deliveries: { draft: 1, posted: 1 },
      batches: 0,
      media: { pending: 0, uploaded: 0 },
      articles: { published: 1 },
      // The fixture registers one executor and starts no run.
      executors: 1,
    });
    expect(state.runs).toEqual({});
  });
});

describe('alias port', () => {
  it('serves the same routes on a second port', async () => {
    const running = await startSandbox({ port: 0, aliasPort: 0, fixture: demoFixture(), quiet: true });
    try {
      const alias = running.ctx.aliasBaseUrl();
      expect(alias).not.toBeNull();
      expect(alias).not.toBe(running.url);
      const headers = { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' };
      const created = await fetch(`${alias}/api/cli/posts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          caption: 'via alias',
          action: 'draft',
          targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
        }),
      });
      expect(created.status).toBe(201);
      const listed = await jsonOf(fetch(`${running.url}/api/cli/posts`, { headers }));
      expect(listed.posts[0].caption).toBe('via alias');
      expect((await fetch(`${alias}/llms.txt`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
