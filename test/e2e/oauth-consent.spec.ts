import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '../../src-sandbox/app';
import { screenshot } from './support/page';

/**
 * The sandbox's OAuth consent page (docs/sandbox-agent.md, OAuth) in a browser, light and dark: it names
 * the client and its redirect host; the owner signs in with their API key and allows (the client's loopback
 * listener gets a code that the token endpoint takes) or denies (it gets access_denied); axe finds no
 * serious or critical violation.
 */

let sandbox: RunningSandbox;
let callback: Server;
let callbackUrl: string;
const received: URL[] = [];

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  // The client's loopback listener, as a native app runs one (RFC 8252 §7.3).
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>Signed in</title><h1>You can close this window</h1></html>',
    );
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => callback.close(() => resolve()));
  await sandbox.close();
});

async function violations(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

async function authorizationUrl(): Promise<{ url: string; verifier: string; clientId: string }> {
  const reg = await fetch(`${sandbox.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Claude Desktop',
      // Registered on one port; the browser is sent back to another (any port matches on loopback).
      redirect_uris: ['http://127.0.0.1:1/callback'],
      token_endpoint_auth_method: 'none',
    }),
  });
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(48).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callbackUrl,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: `${sandbox.url}/api/mcp`,
  });
  return { url: `${sandbox.url}/oauth/authorize?${query}`, verifier, clientId };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`consent: allow after a wrong key, then deny (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const request = await authorizationUrl();
    await page.goto(request.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Allow Claude Desktop to use your Postdesk account?',
    );
    await expect(page.getByText(new URL(callbackUrl).host)).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await screenshot(page, `oauth-consent-${scheme}`);

    // A key that is not the owner's: the page again, saying why, and nothing sent back.
    await page.getByLabel('Your API key').fill('pd_not_a_real_key_000000');
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByRole('alert')).toContainText('That API key was not accepted');
    await expect(page.getByLabel('Your API key')).toHaveAttribute('aria-invalid', 'true');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, `oauth-consent-wrong-key-${scheme}`);

    await page.getByLabel('Your API key').fill(sandbox.apiKey!);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByRole('heading', { name: 'You can close this window' })).toBeVisible();
    const allowed = received.at(-1)!;
    expect(allowed.searchParams.get('state')).toBe('st-123');
    const code = allowed.searchParams.get('code');
    expect(code).toBeTruthy();
    const token = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: request.clientId,
        code: code!,
        code_verifier: request.verifier,
        redirect_uri: callbackUrl,
      }),
    });
    expect(token.status).toBe(200);

    const denied = await authorizationUrl();
    await page.goto(denied.url);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('heading', { name: 'You can close this window' })).toBeVisible();
    const back = received.at(-1)!;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
  });
}
