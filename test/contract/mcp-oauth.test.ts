import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src-sandbox/app';
import { startSandbox } from '../../src-sandbox/app';
import { TestOAuthProvider } from '../helpers/mcp-oauth';
import type { Loose } from '../helpers/sandbox';
import { IDS, TEST_KEYS, demoFixture, jsonOf } from '../helpers/sandbox';

/**
 * OAuth 2.0 at the sandbox's MCP server, driven by the official SDK client's OAuth support (`auth()` with
 * an OAuthClientProvider) over HTTP, and by hand for what a well-behaved client never sends.
 */

let sb: RunningSandbox;
let url: string;
let aliasUrl: string;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, aliasPort: 0, fixture: demoFixture(), quiet: true });
  url = sb.url;
  aliasUrl = sb.ctx.aliasBaseUrl()!;
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  const res = await fetch(`${url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(demoFixture()),
  });
  expect(res.status).toBe(200);
});

const mcpUrl = (): string => `${url}/api/mcp`;

async function advance(ms: number): Promise<void> {
  const res = await fetch(`${url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  });
  expect(res.status).toBe(200);
}

/** The whole flow through the SDK: discovery, registration, authorization with the key, token. */
async function signIn(key: string, provider = new TestOAuthProvider(key)): Promise<TestOAuthProvider> {
  expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('REDIRECT');
  expect(provider.redirected?.state).toBe(provider.lastState);
  const code = provider.redirected?.code;
  expect(code).toBeTruthy();
  expect(await auth(provider, { serverUrl: mcpUrl(), authorizationCode: code! })).toBe('AUTHORIZED');
  return provider;
}

/** A tools/list at /api/mcp with this bearer: the status and the answer. */
async function listTools(
  bearer: string,
  at = mcpUrl(),
): Promise<{ status: number; body: Loose; challenge: string | null }> {
  const res = await fetch(at, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  return { status: res.status, body: await jsonOf(res), challenge: res.headers.get('www-authenticate') };
}

const tokenRequest = (params: Record<string, string>, base = url): Promise<Response> =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });

const pkce = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** By hand: register a public client, then authorize with the key; the code and what it needs. */
async function codeByHand(
  opts: { base?: string; redirect?: string; key?: string } = {},
): Promise<{ clientId: string; code: string; verifier: string; redirect: string }> {
  const base = opts.base ?? url;
  const redirect = opts.redirect ?? 'http://127.0.0.1:40000/cb';
  const reg = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
      client_name: 'by hand',
    }),
  });
  expect(reg.status).toBe(201);
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    resource: `${base}/api/mcp`,
  });
  const res = await fetch(`${base}/oauth/authorize?${query}`, {
    headers: { authorization: `Bearer ${opts.key ?? TEST_KEYS.a}` },
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('xyz');
  return { clientId, code: back.searchParams.get('code')!, verifier, redirect };
}

const exchange = (c: { clientId: string; code: string; verifier: string; redirect: string }, base = url) =>
  tokenRequest(
    {
      grant_type: 'authorization_code',
      client_id: c.clientId,
      code: c.code,
      code_verifier: c.verifier,
      redirect_uri: c.redirect,
    },
    base,
  );

describe('discovery', () => {
  it('a 401 from /api/mcp points at the resource metadata, which names the authorization server', async () => {
    const res = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${url}/.well-known/oauth-protected-resource/api/mcp`);
    expect(challenge).not.toContain('error=');

    const prm = OAuthProtectedResourceMetadataSchema.parse(await jsonOf(fetch(metadataUrl!)));
    expect(prm.resource).toBe(mcpUrl());
    expect(prm.authorization_servers).toEqual([url]);

    const as = OAuthMetadataSchema.parse(
      await jsonOf(fetch(`${url}/.well-known/oauth-authorization-server`)),
    );
    expect(as.issuer).toBe(url);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(as.registration_endpoint).toBe(`${url}/oauth/register`);

    // Browser-based clients (the MCP Inspector) may read discovery, registration and token answers.
    const preflight = await fetch(`${url}/oauth/register`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    const asRes = await fetch(`${url}/.well-known/oauth-authorization-server`, {
      headers: { origin: 'http://localhost:6274' },
    });
    expect(asRes.headers.get('access-control-allow-origin')).toBe('*');
    const badToken = await tokenRequest({ grant_type: 'refresh_token', client_id: 'pdc_nobody' });
    expect(badToken.headers.get('access-control-allow-origin')).toBe('*');
    const consent = await fetch(`${url}/oauth/authorize`, { headers: { accept: 'text/html' } });
    expect(consent.headers.get('access-control-allow-origin')).toBeNull();

    // A wrong token says so in the challenge (RFC 6750 §3.1).
    const wrong = await listTools('pdat_not-a-token');
    expect(wrong.status).toBe(401);
    expect(wrong.challenge).toContain('error="invalid_token"');
    expect(wrong.challenge).toContain('resource_metadata=');
  });
});

describe('the SDK client through the whole flow', () => {
  it('registers, is authorized with the key, gets tokens, calls tools as the owner, and refreshes', async () => {
    const provider = await signIn(TEST_KEYS.a);
    const tokens = OAuthTokensSchema.parse(provider.saved);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(provider.client?.client_id).toMatch(/^pdc_/);

    const client = new Client({ name: 'oauth-contract', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('create_post');
    const listed = await client.callTool({ name: 'list_accounts', arguments: {} });
    const accounts = JSON.parse((listed.content as { text: string }[])[0]!.text) as {
      accounts: { id: string }[];
    };
    expect(accounts.accounts.map((a) => a.id)).toContain(IDS.accounts.x);
    // A REST-backed write runs as the owner, through the REST route's rules.
    const created = await client.callTool({
      name: 'create_post',
      arguments: {
        caption: 'over OAuth',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect(created.isError).toBe(false);
    const rest = await fetch(`${url}/api/cli/posts?status=draft`, {
      headers: { authorization: `Bearer ${TEST_KEYS.a}` },
    });
    const drafts = ((await rest.json()) as { posts: { caption: string }[] }).posts;
    expect(drafts.map((p) => p.caption)).toContain('over OAuth');
    await client.close();

    // Refresh: a new pair; the old refresh token is spent.
    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    const after = provider.saved!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await listTools(after.access_token)).status).toBe(200);

    // The spent refresh token presented again: refused, and the grant it belonged to ends.
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: provider.client!.client_id,
      refresh_token: before.refresh_token!,
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await listTools(after.access_token)).status).toBe(401);
  });

  it('the API key stays accepted at /api/mcp', async () => {
    expect((await listTools(TEST_KEYS.a)).status).toBe(200);
  });
});

describe('refused', () => {
  it('a wrong code_verifier', async () => {
    const c = await codeByHand();
    const res = await exchange({ ...c, verifier: pkce().verifier });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('code_verifier'),
    });
  });

  it('a reused code, which also revokes the tokens it gave', async () => {
    const c = await codeByHand();
    const first = await exchange(c);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const tokens = OAuthTokensSchema.parse(await first.json());
    expect((await listTools(tokens.access_token)).status).toBe(200);

    const again = await exchange(c);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await listTools(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: tokens.refresh_token!,
    });
    expect(refresh.status).toBe(400);
  });

  it('a non-loopback http redirect, at registration and at authorization', async () => {
    const reg = await fetch(`${url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['http://example.com/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status).toBe(400);
    expect(await reg.json()).toMatchObject({ error: 'invalid_redirect_uri' });

    // A registered https redirect matches exactly; a loopback one on any port, nothing else.
    const ok = await fetch(`${url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:1/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = ((await ok.json()) as { client_id: string }).client_id;
    const tryRedirect = async (redirect: string): Promise<Response> =>
      fetch(
        `${url}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirect,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        })}`,
        { headers: { authorization: `Bearer ${TEST_KEYS.a}` }, redirect: 'manual' },
      );
    expect((await tryRedirect('http://127.0.0.1:55123/cb')).status).toBe(302);
    expect((await tryRedirect('https://app.example/cb')).status).toBe(302);
    for (const wrong of [
      'http://app.example/cb',
      'https://app.example/cb2',
      'http://127.0.0.1:55123/other',
    ]) {
      const res = await tryRedirect(wrong);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('PKCE other than S256 goes back to the client as an RFC 6749 error', async () => {
    const c = await codeByHand();
    const res = await fetch(
      `${url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: c.clientId,
        redirect_uri: c.redirect,
        code_challenge: 'plain-challenge-value-that-is-long-enough-000000',
        code_challenge_method: 'plain',
        state: 's1',
      })}`,
      { headers: { authorization: `Bearer ${TEST_KEYS.a}` }, redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.get('code')).toBeNull();

    const grant = await tokenRequest({ grant_type: 'password', client_id: c.clientId });
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const unknown = await tokenRequest({ grant_type: 'authorization_code', client_id: 'pdc_nobody' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('an access token at /api/cli', async () => {
    const { saved } = await signIn(TEST_KEYS.a);
    const res = await fetch(`${url}/api/cli/accounts`, {
      headers: { authorization: `Bearer ${saved!.access_token}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      code: 'UNAUTHORIZED',
      error: expect.stringContaining('/api/mcp only'),
    });
  });

  it('a token minted for another resource', async () => {
    // The alias host is another origin, so another resource: its token is not good here, nor the reverse.
    const c = await codeByHand({ base: aliasUrl });
    const res = await exchange(c, aliasUrl);
    expect(res.status).toBe(200);
    const tokens = OAuthTokensSchema.parse(await res.json());
    expect((await listTools(tokens.access_token, `${aliasUrl}/api/mcp`)).status).toBe(200);
    const here = await listTools(tokens.access_token);
    expect(here.status).toBe(401);
    expect(here.body.error).toContain('another resource');

    // Asking this server for a token of another resource is refused at the authorization request.
    const other = await fetch(
      `${url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: (await codeByHand()).clientId,
        redirect_uri: 'http://127.0.0.1:40000/cb',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: 'https://elsewhere.example/api/mcp',
      })}`,
      { headers: { authorization: `Bearer ${TEST_KEYS.a}` }, redirect: 'manual' },
    );
    expect(new URL(other.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('an expired access token; the refresh token still renews it', async () => {
    const provider = await signIn(TEST_KEYS.a);
    const access = provider.saved!.access_token;
    await advance(HOUR - 1000);
    expect((await listTools(access)).status).toBe(200);
    await advance(2000);
    const expired = await listTools(access);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toContain('expired');
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe('AUTHORIZED');
    expect((await listTools(provider.saved!.access_token)).status).toBe(200);
  });

  it('an expired code', async () => {
    const c = await codeByHand();
    await advance(5 * 60 * 1000 + 1);
    const res = await exchange(c);
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it('a revoked API key ends its tokens and its refresh', async () => {
    const provider = await signIn(TEST_KEYS.a);
    expect((await listTools(provider.saved!.access_token)).status).toBe(200);
    const revoke = await fetch(`${url}/_sandbox/api-keys/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: TEST_KEYS.a }),
    });
    expect(revoke.status).toBe(200);
    const refused = await listTools(provider.saved!.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toContain('revoked');
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: provider.client!.client_id,
      refresh_token: provider.saved!.refresh_token!,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('an API key that expires ends its tokens', async () => {
    const fixture = demoFixture();
    const soon = new Date(Date.parse(fixture.now!) + 10 * 60 * 1000).toISOString();
    fixture.owners![0]!.api_keys![0] = { key: TEST_KEYS.a, scopes: ['media:write'], expires_at: soon };
    await fetch(`${url}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fixture),
    });
    const provider = await signIn(TEST_KEYS.a);
    expect((await listTools(provider.saved!.access_token)).status).toBe(200);
    await advance(11 * 60 * 1000);
    const refused = await listTools(provider.saved!.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toContain('expired');
  });

  it('authorization with a key that is not accepted', async () => {
    const provider = new TestOAuthProvider(TEST_KEYS.aRevoked);
    await expect(auth(provider, { serverUrl: mcpUrl() })).rejects.toThrow(/401/);
  });
});
