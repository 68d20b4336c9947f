import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * Any web page the user opens can send a "simple" cross-site request to the loopback sandbox: a
 * `<form method=post>` or a no-cors fetch, with a `text/plain` or form body or none at all. Such a
 * request must not reach a control route (`/_sandbox/*`): it must not wipe owners and keys, move the
 * clock or inject faults.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

/** Owner a's state that a wipe would destroy: its key still lists its accounts and its draft exists. */
async function ownerIntact(): Promise<void> {
  const accounts = await sb.api('GET', '/api/cli/accounts');
  expect(accounts.status).toBe(200);
  expect(accounts.body.accounts.length).toBe(5);
  expect((await sb.control.state()).posts).toBe(1);
}

const draft = () =>
  sb.api('POST', '/api/cli/posts', {
    body: {
      caption: 'keep me',
      action: 'draft',
      targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
    },
  });

const send = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string }) =>
  fetch(`${sb.url}${path}`, { method: init.method ?? 'POST', headers: init.headers ?? {}, body: init.body });

describe('cross-site requests to /_sandbox/reset', () => {
  it('refuses a form post with a text/plain body from another origin and keeps every owner', async () => {
    await draft();
    const res = await send('/_sandbox/reset', {
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: '{"owners":[]}',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
    await ownerIntact();
  });

  it('refuses an urlencoded form body and an empty body, with or without an Origin', async () => {
    await draft();
    const attempts: { headers: Record<string, string>; body?: string }[] = [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'owners=' },
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' },
      { headers: { 'content-type': 'text/plain' }, body: '' },
      { headers: {} },
      { headers: { origin: 'null' } },
      { headers: { origin: 'http://evil.example', 'content-type': 'text/plain' } },
    ];
    for (const attempt of attempts) {
      const res = await send('/_sandbox/reset', attempt);
      expect([403, 415], JSON.stringify(attempt)).toContain(res.status);
      await ownerIntact();
    }
  });

  it('refuses JSON from a foreign Origin (a DNS-rebinding page) and an empty JSON body', async () => {
    await draft();
    const foreign = await send('/_sandbox/reset', {
      headers: { 'content-type': 'application/json', origin: 'http://evil.example:4010' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    const empty = await send('/_sandbox/reset', { headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    await ownerIntact();
  });

  it('still accepts JSON `{}` (an empty fixture) from a tool, and from the sandbox’s own origin', async () => {
    await draft();
    const own = await send('/_sandbox/reset', {
      headers: { 'content-type': 'application/json', origin: new URL(sb.url).origin },
      body: '{}',
    });
    expect(own.status).toBe(200);
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(401);
    await sb.control.reset();
    await draft();
    const tool = await send('/_sandbox/reset', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{}',
    });
    expect(tool.status).toBe(200);
    expect((await sb.control.state()).posts).toBe(0);
  });
});

describe('cross-site requests to the other control routes', () => {
  it('refuses non-JSON bodies and foreign origins on clock, faults and automations, changing nothing', async () => {
    const clockBefore = await sb.control.clock();
    const attempts: [string, string, Record<string, string>, string][] = [
      ['POST', '/_sandbox/clock', { 'content-type': 'text/plain' }, '{"advance_ms":86400000}'],
      [
        'POST',
        '/_sandbox/clock',
        { 'content-type': 'application/json', origin: 'http://evil.example' },
        '{"advance_ms":1}',
      ],
      ['POST', '/_sandbox/faults', { 'content-type': 'text/plain' }, '{"error_rate":1}'],
      [
        'POST',
        '/_sandbox/faults',
        { 'content-type': 'application/json', origin: 'null' },
        '{"error_rate":1}',
      ],
      ['PUT', `/_sandbox/automations/${IDS.automation}`, { 'content-type': 'text/plain' }, '{}'],
    ];
    for (const [method, path, headers, body] of attempts) {
      const res = await send(path, { method, headers, body });
      expect([403, 415], `${method} ${path} ${JSON.stringify(headers)}`).toContain(res.status);
    }
    expect(await sb.control.clock()).toBe(clockBefore);
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(200);
    expect((await fetch(`${sb.url}/_sandbox/faults`).then((r) => r.json())) as object).toEqual({});
  });

  it('refuses even a read from a foreign Origin', async () => {
    const res = await fetch(`${sb.url}/_sandbox/state`, { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
  });
});

/** A request as the browser sends it after DNS rebinding: to the sandbox's port, with the page's own Host. */
function rebound(path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a page that rebinds its own name to the sandbox', () => {
  it('cannot read the control state: a foreign Host is refused, loopback names still answer', async () => {
    await draft();
    const { port } = new URL(sb.url);
    const evil = await rebound('/_sandbox/state', `evil.example:${port}`);
    expect(evil.status).toBe(403);
    expect(evil.body).not.toContain('"posts"');
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const own = await rebound('/_sandbox/state', host);
      expect(own.status, host).toBe(200);
      expect(JSON.parse(own.body)).toMatchObject({ posts: 1 });
    }
  });
});
