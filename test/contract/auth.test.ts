import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import { OPERATIONS } from '../../src-shared/api/operations';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox';
import { outsideAddress } from '../helpers/network';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Every /api/cli operation of the contract's table. */
const CLI_ROUTES: [string, string][] = Object.values(OPERATIONS)
  .filter((op) => op.path.startsWith('/api/cli/'))
  .map((op) => [op.method, op.path]);

describe('API key authentication', () => {
  it.each(CLI_ROUTES)(
    '%s %s answers 401 UNAUTHORIZED without a key, with x-api-key only, and with a bad key',
    async (method, path) => {
      const body = method === 'GET' ? undefined : {};
      for (const opts of [
        { key: null },
        { key: null, headers: { 'x-api-key': TEST_KEYS.a } },
        { key: 'pd_not_a_key' },
        { key: TEST_KEYS.aExpired },
        { key: TEST_KEYS.aRevoked },
      ]) {
        const res = await sb.api(method, path, { ...opts, body });
        expect(res.status, JSON.stringify(opts)).toBe(401);
        expect(res.body.code).toBe('UNAUTHORIZED');
        expect(res.text).not.toContain(TEST_KEYS.a);
      }
    },
  );

  it('says why: x-api-key, expired, revoked', async () => {
    expect(
      (await sb.api('GET', '/api/cli/posts', { key: null, headers: { 'x-api-key': TEST_KEYS.a } })).body
        .error,
    ).toMatch(/x-api-key header is not accepted/);
    expect((await sb.api('GET', '/api/cli/posts', { key: TEST_KEYS.aExpired })).body.error).toMatch(
      /expired/,
    );
    expect((await sb.api('GET', '/api/cli/posts', { key: TEST_KEYS.aRevoked })).body.error).toMatch(
      /revoked/,
    );
    expect(
      (
        await sb.api('GET', '/api/cli/posts', {
          key: null,
          headers: { authorization: `Basic ${TEST_KEYS.a}` },
        })
      ).status,
    ).toBe(401);
  });

  it('expires a key when the sandbox clock passes its 365 days', async () => {
    await sb.control.reset();
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(200);
    await sb.control.advance(365 * 86_400_000);
    const res = await sb.api('GET', '/api/cli/accounts');
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    await sb.control.reset();
  });

  it('judges a key by the store as it is now: a reset that revokes, drops or adds a key counts at once', async () => {
    // Keys are looked up once and kept (src-sandbox/auth.ts); each reset must be seen by the next request.
    const withKeys = (keys: Record<string, unknown>[]) => {
      const fixture = demoFixture() as { owners: { api_keys: Record<string, unknown>[] }[] };
      fixture.owners[0]!.api_keys = keys;
      return fixture as ReturnType<typeof demoFixture>;
    };
    const status = async (key: string) => (await sb.api('GET', '/api/cli/accounts', { key })).status;
    await sb.control.reset();
    expect(await status(TEST_KEYS.a)).toBe(200);
    expect(await status('pd_added_later_0000000000000000')).toBe(401);

    await sb.control.reset(withKeys([{ key: TEST_KEYS.a, scopes: [], revoked: true }]));
    const revoked = await sb.api('GET', '/api/cli/accounts', { key: TEST_KEYS.a });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toMatch(/revoked/);

    await sb.control.reset(withKeys([{ key: 'pd_added_later_0000000000000000', scopes: [] }]));
    expect(await status(TEST_KEYS.a)).toBe(401);
    expect(await status('pd_added_later_0000000000000000')).toBe(200);

    await sb.control.reset();
    expect(await status(TEST_KEYS.a)).toBe(200);
    expect(await status('pd_added_later_0000000000000000')).toBe(401);
  });

  it('needs no key for skills and llms.txt', async () => {
    expect((await sb.api('GET', '/api/skills', { key: null })).status).toBe(200);
    expect((await sb.api('GET', '/llms.txt', { key: null })).status).toBe(200);
  });
});

describe('owner isolation', () => {
  it('answers a foreign id exactly like a missing one', async () => {
    await sb.control.reset();
    const post = await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'mine',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const article = await sb.api('POST', '/api/cli/articles', {
      body: { title: 't', body_markdown: 'b', destinations: ['devto'] },
    });
    const b = { key: TEST_KEYS.b };
    const checks: [string, string, unknown][] = [
      ['PATCH', '/api/cli/posts', { id: post.body.post.id, caption: 'x' }],
      ['DELETE', '/api/cli/posts', { id: post.body.social_posts[0].id }],
      ['DELETE', '/api/cli/articles', { id: article.body.article.id }],
      ['GET', `/api/cli/analytics?post_id=${post.body.post.id}`, undefined],
    ];
    for (const [method, path, body] of checks) {
      const foreign = await sb.api(method, path, { ...b, body });
      const missing = await sb.api(method, path.replace(post.body.post.id, 'f'.repeat(8)), {
        ...b,
        body:
          body &&
          JSON.parse(
            JSON.stringify(body)
              .replaceAll(post.body.post.id, 'ffffffff')
              .replaceAll(post.body.social_posts[0].id, 'ffffffff')
              .replaceAll(article.body.article.id, 'ffffffff'),
          ),
      });
      expect(foreign.status, `${method} ${path}`).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    }
    expect((await sb.api('GET', '/api/cli/posts', b)).body.posts).toEqual([]);
    expect((await sb.api('GET', '/api/cli/articles', b)).body.articles).toEqual([]);
    expect(
      (await sb.api('GET', '/api/cli/accounts', b)).body.accounts.map((a: { id: string }) => a.id),
    ).toEqual([IDS.accountB]);
  });
});

describe('control API', () => {
  // A machine with no outside interface cannot reach the sandbox from off loopback at all.
  it.skipIf(!outsideAddress)('answers only on loopback', async () => {
    const external = outsideAddress!;
    const wide = await startSandbox({ port: 0, host: '0.0.0.0', fixture: demoFixture(), quiet: true });
    try {
      const port = new URL(wide.url).port;
      const res = await fetch(`http://${external}:${port}/_sandbox/state`);
      expect(res.status).toBe(403);
      expect((await fetch(`http://127.0.0.1:${port}/_sandbox/state`)).status).toBe(200);
      expect((await fetch(`http://${external}:${port}/api/skills`)).status).toBe(200);
    } finally {
      await wide.close();
    }
  });

  it('reports the fixture clock', async () => {
    await sb.control.reset();
    expect(await sb.control.clock()).toBe(FIXTURE_NOW);
  });
});
