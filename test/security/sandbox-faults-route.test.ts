import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * The sandbox's injected faults decide on the route the router matched, as every guard does (docs/security.md,
 * Guards), never on the raw URL: a request the router serves as `POST /api/cli/posts`, however its path is
 * written, is subject to faults set for `/api/cli/posts`. On the raw path, `/api/cli/%70osts` slipped past an
 * `error_rate` of 1 and created a post that a test of retries believed refused.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.faults({}));

/** One request with its path exactly as written (fetch would normalise it). */
function raw(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method,
        path,
        headers: { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const draft = JSON.stringify({
  caption: 'faults by route',
  action: 'draft',
  targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
});

/** Spellings of `/api/cli/posts` the router serves as that route. */
const SPELLINGS = [
  '/api/cli/posts',
  '/api/cli/%70osts',
  '/api/cli/post%73',
  '/%61pi/cli/posts',
  '/api/%63li/posts',
];

describe('injected faults follow the matched route', () => {
  it('serves every spelling as the posts route (the premise)', async () => {
    for (const path of SPELLINGS) expect((await raw('GET', path)).status, path).toBe(200);
  });

  it('an error_rate of 1 on /api/cli/posts refuses every spelling, and nothing is created', async () => {
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts'] });
    const before = (await sb.control.state()).posts;
    for (const path of SPELLINGS) {
      const res = await raw('POST', path, draft);
      expect(res.status, path).toBe(503);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'SANDBOX_FAULT' });
    }
    await sb.control.faults({});
    expect((await sb.control.state()).posts).toBe(before);
  });

  it('faults without paths cover every /api/ route however it is spelt', async () => {
    await sb.control.faults({ error_rate: 1 });
    for (const path of SPELLINGS) expect((await raw('GET', path)).status, path).toBe(503);
  });

  it('a route outside the listed prefixes is not subject, however it is spelt', async () => {
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts'] });
    for (const path of ['/api/cli/accounts', '/api/cli/%61ccounts'])
      expect((await raw('GET', path)).status, path).toBe(200);
  });

  it('a prefix naming a route parameter matches the decoded value the route was given', async () => {
    await sb.control.faults({ error_rate: 1, paths: ['/api/skills/'] });
    expect((await raw('GET', '/api/skills/%6Eo-such-skill')).status).toBe(503);
    await sb.control.faults({ error_rate: 1, paths: ['/api/skills/no-such-skill'] });
    expect((await raw('GET', '/api/skills/%6Eo-such-skill')).status).toBe(503);
    expect((await raw('GET', '/api/skills/other')).status).toBe(404);
  });
});
