import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox';
import { TEST_KEYS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/**
 * Attacks on the sandbox's OAuth consent page and on the MCP server's inner calls: a client's name or
 * redirect chosen to run markup, a page framed by another site, a forged inner-call bearer.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
});
afterAll(async () => {
  await sb.close();
});

async function register(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${sb.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...body }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

const authorizeUrl = (clientId: string, redirect: string, extra: Record<string, string> = {}): string =>
  `${sb.url}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...extra,
  })}`;

it('a client name, state and redirect path chosen as markup are shown as text, and no script may run', async () => {
  const hostile = '<img src=x onerror=alert(1)>"\'&';
  const redirect = 'http://127.0.0.1:9/cb?x="><script>alert(2)</script>';
  const clientId = await register({ client_name: hostile, redirect_uris: [redirect] });
  const res = await fetch(authorizeUrl(clientId, redirect, { state: '"><script>alert(3)</script>' }));
  expect(res.status).toBe(200);
  const page = await res.text();
  expect(page).not.toContain('<img src=x');
  expect(page).not.toContain('<script>');
  expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
});

it('an inner-call bearer sent from outside is no credential, at /api/cli or /api/mcp', async () => {
  for (const path of ['/api/cli/accounts', '/api/mcp']) {
    const res = await fetch(`${sb.url}${path}`, {
      method: path === '/api/mcp' ? 'POST' : 'GET',
      headers: {
        authorization: 'Bearer inner_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        'x-sandbox-mcp-inner': 'guess',
        'content-type': 'application/json',
      },
      ...(path === '/api/mcp'
        ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }
        : {}),
    });
    expect(res.status).toBe(401);
  }
});

it('the consent form does not grant without the owner’s key, and a wrong key grants nothing', async () => {
  const redirect = 'http://127.0.0.1:9/cb';
  const clientId = await register({ client_name: 'Form', redirect_uris: [redirect] });
  const form = (fields: Record<string, string>) =>
    fetch(`${sb.url}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        ...fields,
      }),
      redirect: 'manual',
    });
  for (const key of ['', TEST_KEYS.aRevoked, TEST_KEYS.aExpired, 'pd_not_a_key_at_all']) {
    const res = await form({ decision: 'allow', api_key: key });
    expect(res.status).toBe(401);
    expect(res.headers.get('location')).toBeNull();
  }
  const allowed = await form({ decision: 'allow', api_key: TEST_KEYS.a });
  expect(allowed.status).toBe(302);
  expect(new URL(allowed.headers.get('location')!).searchParams.get('code')).toMatch(/^pdac_/);
});
