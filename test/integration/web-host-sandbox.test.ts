import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createWsBridge, type WebSocketLike, type WsBridge } from '../../src-shared/ipc/ws-client';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { startWeb, type RunningWeb } from '../../src-main/cli/web/run-web';
import { mediaFixtures } from '../helpers/media-fixtures';
import { outsideAddress } from '../helpers/network';
import { printedLink, sessionSecretFor } from '../helpers/web-host';

/** `postdesk web --sandbox` in-process on port 0, driven by a `ws` client as the page would. */

let web: RunningWeb;
let staticDir: string;
let secret: string;
let link: string;
let lines: string[];
const bridges: WsBridge[] = [];

/** A bridge whose every incoming frame is recorded. */
function pageBridge(frames: string[] = []): WsBridge {
  const b = createWsBridge({
    origin: web.host.origin,
    token: secret,
    openSocket: (url) => {
      const ws = new WebSocket(url, { origin: web.host.origin });
      ws.on('message', (d) => frames.push(String(d)));
      return ws as unknown as WebSocketLike;
    },
  });
  bridges.push(b);
  return b;
}

/** How the server answers an upgrade: 101 (opened) or the refusal's status. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'postdesk-web-static-'));
  await writeFile(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Postdesk</title><div id="root"></div>',
  );
  lines = [];
  web = await startWeb({
    sandbox: true,
    port: 0,
    open: false,
    env: {},
    version: 'test',
    startSandbox: startSandboxInProcess,
    staticDir,
    print: (l) => lines.push(l),
  });
  link = printedLink(lines);
  secret = await sessionSecretFor(link);
});

afterAll(async () => {
  for (const b of bridges) b.close();
  await web?.close();
  await rm(staticDir, { recursive: true, force: true });
});

describe('postdesk web --sandbox', () => {
  it('prints a loopback link carrying a one-time code (never the session secret), and the sandbox it started', () => {
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{40,}$/);
    expect(lines).toContain(`open: ${link}`);
    expect(lines.join('\n')).not.toContain(secret);
    expect(lines.some((l) => l.startsWith('sandbox listening on http://127.0.0.1:'))).toBe(true);
  });

  const tryConnect = (host: string) =>
    new Promise<boolean>((resolve) => {
      const s = netConnect({ host, port: web.host.port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });

  it('listens on 127.0.0.1 only', async () => {
    expect(await tryConnect('127.0.0.1')).toBe(true);
    // not the IPv6 loopback: one address only
    expect(await tryConnect('::1')).toBe(false);
  });

  it.skipIf(!outsideAddress)('cannot be reached on an outside interface', async () => {
    expect(await tryConnect(outsideAddress!)).toBe(false);
  });

  it('refuses WebSocket upgrades without the secret, with a wrong one, or from another origin', async () => {
    const ws = `ws://127.0.0.1:${web.host.port}/bridge`;
    expect(await upgradeStatus(ws)).toBe(401);
    expect(await upgradeStatus(`${ws}?token=${'x'.repeat(secret.length)}`)).toBe(401);
    expect(await upgradeStatus(`${ws}?token=${secret}`, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(`${ws}?token=${secret}`, { host: `evil.example:${web.host.port}` })).toBe(421);
    expect(await upgradeStatus(`${ws}?token=${secret}`, { origin: web.host.origin })).toBe(101);
    // Only the bridge's path upgrades, even with the secret: the page's own path is no socket.
    const page = `ws://127.0.0.1:${web.host.port}/posts?token=${secret}`;
    expect(await upgradeStatus(page, { origin: web.host.origin })).toBe(404);
  });

  it('serves the renderer with a strict CSP, and refuses other Host names', async () => {
    const res = await fetch(`${web.host.origin}/posts`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    // Encoded traversal never leaves the build folder: the app's page or a 404, never the file.
    for (const path of [
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/%2e%2e%5c%2e%2e%5cetc%5cpasswd',
    ]) {
      const r = await fetch(`${web.host.origin}${path}`);
      expect(await r.text()).not.toContain('root:');
    }
    const misdirected = await new Promise<number>((resolve, reject) => {
      const req = httpGet(
        {
          host: '127.0.0.1',
          port: web.host.port,
          path: '/',
          headers: { host: `rebind.example:${web.host.port}` },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
    });
    expect(misdirected).toBe(421);
  });

  it('answers invokes with data from the sandbox once connected offline', async () => {
    const { bridge } = pageBridge();
    const before = await bridge.accounts.list();
    expect(before.ok).toBe(false);
    if (!before.ok) expect(before.error.kind).toBe('not_connected');

    const status = await bridge.connection.useOffline();
    expect(status.ok && status.value.state).toBe('connected');
    expect(status.ok && status.value.offline).toBe(true);

    const accounts = await bridge.accounts.list();
    expect(accounts.ok).toBe(true);
    if (!accounts.ok) return;
    expect(accounts.value.accounts.length).toBeGreaterThan(0);
    const times = accounts.value.accounts.map((a) => Date.parse(a.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const skills = await bridge.skills.list();
    expect(skills.ok && skills.value.skills.length).toBeGreaterThan(0);
  });

  it('returns typed errors for bad input, without stacks', async () => {
    const { bridge } = pageBridge();
    const bad = await bridge.posts.create({ caption: 'x'.repeat(3000), targets: [] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.kind).toBe('invalid_input');
    expect(bad.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['caption', 'targets']));
    expect(JSON.stringify(bad)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('pushes events to the page: a created post announces itself', async () => {
    const { bridge } = pageBridge();
    await bridge.connection.useOffline();
    const accounts = await bridge.accounts.list();
    const acct = accounts.ok ? accounts.value.accounts.find((a) => a.platform !== 'youtube') : undefined;
    expect(acct).toBeDefined();
    // The change that tells of this post, with its delivery as the service made it.
    const changed = new Promise<unknown>((resolve) =>
      bridge.posts.onDidChange((c) => {
        if (c.deliveries?.some((d) => d.caption === 'from the web host test')) resolve(c);
      }),
    );
    const when = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const created = await bridge.posts.create({
      caption: 'from the web host test',
      targets: [{ social_account_id: acct!.id, platform: acct!.platform }],
      scheduled_at: when,
    });
    expect(created.ok).toBe(true);
    expect(await changed).toMatchObject({
      reason: 'created',
      deliveries: [expect.objectContaining({ status: 'scheduled', scheduled_at: when })],
    });
    const range = await bridge.calendar.range({
      start: new Date(Date.now()).toISOString(),
      end: new Date(Date.now() + 8 * 24 * 3600_000).toISOString(),
    });
    expect(range.ok && range.value.deliveries.some((d) => d.caption === 'from the web host test')).toBe(true);
  });

  it('never sends a key set through secrets:set (or typed into Connect) back in any frame', async () => {
    const frames: string[] = [];
    const { bridge } = pageBridge(frames);
    const sandboxKey = /^api key: (.+)$/m.exec(lines.join('\n'))?.[1];
    expect(sandboxKey).toBeTruthy();

    const typed = 'pk_live_this_key_must_never_come_back_0123456789';
    const set = await bridge.secrets.set({ api_key: typed });
    expect(set).toEqual({ ok: true, value: { stored: true } });
    const connected = await bridge.connection.connect({ base_url: web.sandboxUrl!, api_key: sandboxKey! });
    expect(connected.ok).toBe(true);
    const has = await bridge.secrets.has();
    expect(has).toEqual({ ok: true, value: true });

    await bridge.accounts.list();
    await bridge.posts.list({ limit: 100 });
    await bridge.settings.get();
    await bridge.connection.status();
    const wrong = await bridge.connection.connect({ base_url: web.sandboxUrl!, api_key: typed });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toMatchObject({ kind: 'api', status: 401 });

    const traffic = frames.join('\n');
    expect(frames.length).toBeGreaterThan(5);
    expect(traffic).not.toContain(typed);
    expect(traffic).not.toContain(sandboxKey!);
  });

  it('takes dropped files, previews only them, and only with the secret', async () => {
    const { bridge } = pageBridge();
    const png = await readFile(new URL('../../resources/icon.png', import.meta.url)).catch(() =>
      // the smallest PNG there is, when the app icon is not in place yet
      Buffer.from(
        '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
          '1f15c4890000000d49444154789c6360000000000500010d0a2db40000000049454e44ae426082',
        'hex',
      ),
    );
    const file = {
      name: 'pic.png',
      size: png.length,
      type: 'image/png',
      arrayBuffer: async () => png.buffer.slice(png.byteOffset, png.byteOffset + png.length) as ArrayBuffer,
    };
    const added = await bridge.media.addDropped([file]);
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const [f] = added.value.files;
    expect(f).toMatchObject({ name: 'pic.png', content_type: 'image/png', kind: 'image' });
    const preview = await fetch(`${web.host.origin}${f!.preview_url}`);
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).equals(png)).toBe(true);
    const noToken = f!.preview_url!.replace(/\?token=.*/, '');
    expect((await fetch(`${web.host.origin}${noToken}`)).status).toBe(403);
    expect((await fetch(`${web.host.origin}/media/..%2f..%2fetc%2fpasswd?token=${secret}`)).status).toBe(404);

    const noSecret = await fetch(`${web.host.origin}/bridge/files`, { method: 'POST', body: png });
    expect(noSecret.status).toBe(403);
  });

  it('answers a preview byte range, so a video preview seeks', async () => {
    const { bridge } = pageBridge();
    const mp4 = await readFile(mediaFixtures().mp4);
    const added = await bridge.media.addDropped([
      {
        name: 'clip.mp4',
        size: mp4.length,
        type: 'video/mp4',
        arrayBuffer: async () => mp4.buffer.slice(mp4.byteOffset, mp4.byteOffset + mp4.length) as ArrayBuffer,
      },
    ]);
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const url = `${web.host.origin}${added.value.files[0]!.preview_url}`;

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await whole.arrayBuffer()).equals(mp4)).toBe(true);

    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mp4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp4.subarray(100, 200))).toBe(true);

    const tail = await fetch(url, { headers: { range: 'bytes=-50' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(mp4.subarray(mp4.length - 50))).toBe(true);

    const open = await fetch(url, { headers: { range: `bytes=${mp4.length - 10}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(mp4.subarray(mp4.length - 10))).toBe(true);

    const beyond = await fetch(url, { headers: { range: `bytes=${mp4.length + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${mp4.length}`);
  });

  it('serves nothing the build folder holds only through a symlink out of it, and caches only what may be', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'postdesk-web-outside-'));
    try {
      await writeFile(join(outside, 'secret.js'), 'the secret');
      await symlink(join(outside, 'secret.js'), join(staticDir, 'linked.js'));
      await writeFile(join(staticDir, 'app.js'), 'console.log(1)');
      const linked = await fetch(`${web.host.origin}/linked.js`);
      expect(linked.status).toBe(404);
      expect(await linked.text()).not.toContain('the secret');

      const asset = await fetch(`${web.host.origin}/app.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
      expect(asset.headers.get('cache-control')).toBe('no-cache');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      const part = await fetch(`${web.host.origin}/app.js`, { headers: { range: 'bytes=0-6' } });
      expect(part.status).toBe(206);
      expect(await part.text()).toBe('console');
      const dotfile = await fetch(`${web.host.origin}/.env`);
      expect(dotfile.status).toBe(404);
      const page = await fetch(`${web.host.origin}/calendar`);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('plans a 150-row CSV as 2 batches, submits it with progress, and lists both in the history', async () => {
    const { bridge } = pageBridge();
    await bridge.connection.useOffline();
    const accounts = await bridge.accounts.list();
    const acct = accounts.ok ? accounts.value.accounts.find((a) => a.platform === 'linkedin') : undefined;
    const when = (i: number) => new Date(Date.now() + (10 + i) * 3600_000).toISOString();
    const rows = Array.from(
      { length: 150 },
      (_, i) => `"Bulk post ${i + 1}",${acct!.platform}:${acct!.id},${when(i)}`,
    );
    rows[6] = `"Bad row",${acct!.platform}:not-a-uuid,${when(6)}`;
    const text = ['caption,targets,scheduled_at', ...rows].join('\n');

    const plan = await bridge.bulk.plan({ source: { text, name: 'week.csv' } });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.rows).toHaveLength(150);
    expect(plan.value.invalid_count).toBe(1);
    const bad = plan.value.rows.find((r) => !r.ok);
    expect(bad).toMatchObject({ line: 8, issues: [expect.objectContaining({ field: 'targets' })] });
    expect(plan.value.batches).toEqual([
      { index: 0, item_count: 100 },
      { index: 1, item_count: 49 },
    ]);

    const progress: unknown[] = [];
    const off = bridge.bulk.onDidProgress((p) => progress.push(p));
    const sent = await bridge.bulk.submit({ plan_id: plan.value.plan_id });
    off();
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    expect(sent.value.batches).toHaveLength(2);
    expect(sent.value.created_count).toBe(149);
    expect(progress.length).toBeGreaterThanOrEqual(2);

    const history = await bridge.bulk.history();
    expect(history.ok && history.value.batches.filter((b) => b.source_name === 'week.csv')).toHaveLength(2);
    const inspect = await bridge.bulk.inspect({ batch_id: sent.value.batches[0]!.batch_id });
    expect(inspect.ok && inspect.value.created_count).toBe(100);
  });

  // Last: it closes the host the tests above share.
  it('closing stops the bridge (watcher and outbox timers) before the session it runs on', async () => {
    const bridgeClose = vi.spyOn(web.bridge, 'close');
    const sessionClose = vi.spyOn(web.session, 'close');
    for (const b of bridges.splice(0)) b.close();
    await web.close();
    expect(bridgeClose).toHaveBeenCalledOnce();
    expect(sessionClose).toHaveBeenCalledOnce();
    expect(bridgeClose.mock.invocationCallOrder[0]).toBeLessThan(sessionClose.mock.invocationCallOrder[0]!);
  });
});
