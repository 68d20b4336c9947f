/**
 * `postdesk web` opens the browser with a command line every local user can read (`ps -eo args`). The
 * attack: read the opener's argv and take the bridge. The opener gets a one-time code, not the session
 * secret; the page trades the code for the secret once, and the code is useless after that. The
 * terminal's link is another one-time code, replaced by a fresh one each time it is used.
 *
 * The real `xdg-open` is replaced by a script that records its argv (found through PATH, as the real
 * one is); the test plays the browser and the attacker against the real host.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { installWebBridge } from '../../src-shared/ipc/ws-client';
import { SESSION_PATH, WS_PATH } from '../../src-shared/ipc/ws-protocol';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { startWeb, type RunningWeb } from '../../src-main/cli/web/run-web';
import type { WebHost } from '../../src-main/cli/web/web-host';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { scaled } from '../helpers/timeouts';

let dir: string;
let web: RunningWeb;
const lines: string[] = [];
const savedPath = process.env.PATH;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pd-web-secret-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Postdesk</title>');
  const argvFile = join(dir, 'argv.txt');
  writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${argvFile}'\n`, {
    mode: 0o755,
  });
  process.env.PATH = `${dir}:${savedPath ?? ''}`;
  web = await startWeb({
    sandbox: true,
    executor: false,
    port: 0,
    open: true,
    env: { DISPLAY: ':0' },
    version: 'test',
    startSandbox: startSandboxInProcess,
    staticDir: dir,
    print: (l) => lines.push(l),
  });
});
afterAll(async () => {
  process.env.PATH = savedPath;
  await web?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openerArgv(): Promise<string> {
  const file = join(dir, 'argv.txt');
  const until = Date.now() + scaled(10_000);
  for (;;) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text.includes('http')) return text;
    } catch {
      // not yet written
    }
    if (Date.now() > until) throw new Error('the opener was not run');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The page's exchange: POST the code, get the session secret (or the refusal's status). */
async function exchange(origin: string, code: string): Promise<{ status: number; token: string | null }> {
  const res = await fetch(`${origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code }),
  });
  const body = (await res.json().catch(() => null)) as { ok?: boolean; value?: { token?: string } } | null;
  return { status: res.status, token: body?.ok ? (body.value?.token ?? null) : null };
}

function upgradeStatus(origin: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}${WS_PATH}?token=${encodeURIComponent(token)}`, {
      origin,
    });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

/** The page's own first call, through the bridge `installWebBridge` put on it. */
const statusOf = (win: { postdesk?: unknown }) =>
  (win.postdesk as { connection: { status(): Promise<{ ok: boolean }> } }).connection.status();

const codeOf = (url: string): string => new URLSearchParams(new URL(url).hash.slice(1)).get('code') ?? '';
const printedLinks = (): string[] => lines.flatMap((l) => /^open: (\S+)$/.exec(l)?.[1] ?? []);

describe('the launch secret of postdesk web', () => {
  it("the opener's argv gives an attacker nothing once the browser has opened the page", async () => {
    const argv = await openerArgv();
    expect(lines).toContain('(opened in your browser)');
    const opened = argv.split('\n').find((a) => a.startsWith('http')) as string;
    expect(opened.startsWith(`${web.host.origin}/#code=`)).toBe(true);

    // The browser trades the code for the session secret, which works for the bridge.
    const browser = await exchange(web.host.origin, codeOf(opened));
    expect(browser.status).toBe(200);
    const token = browser.token as string;
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(await upgradeStatus(web.host.origin, token)).toBe(101);

    // The attacker: every credential-like word of the argv, as a code and as a WebSocket token.
    expect(argv).not.toContain(token);
    const words = argv.match(/[\w-]{20,}/g) ?? [];
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) {
      expect((await exchange(web.host.origin, w)).status).toBe(403);
      expect(await upgradeStatus(web.host.origin, w)).toBe(401);
    }
    // Nor does the terminal show the session secret.
    expect(lines.join('\n')).not.toContain(token);
  });

  it("the terminal's link works once; then a fresh one is printed, and the old one is refused", async () => {
    const [first] = printedLinks();
    expect(first).toBeDefined();
    expect(codeOf(first as string)).not.toBe(codeOf((await openerArgv()).split('\n')[1] ?? ''));
    const used = await exchange(web.host.origin, codeOf(first as string));
    expect(used.status).toBe(200);
    expect(await upgradeStatus(web.host.origin, used.token as string)).toBe(101);
    expect((await exchange(web.host.origin, codeOf(first as string))).status).toBe(403);

    const next = printedLinks().at(-1) as string;
    expect(next).not.toBe(first);
    const again = await exchange(web.host.origin, codeOf(next));
    expect(again.status).toBe(200);
    expect(again.token).toBe(used.token);
  });

  it('the page trades the code, keeps the secret for a reload, and a second page with the same link is refused', async () => {
    const next = printedLinks().at(-1) as string;
    const storage = new Map<string, string>();
    const replaced: string[] = [];
    const location = { origin: web.host.origin, hash: new URL(next).hash, search: '', pathname: '/' };
    const page = {
      location,
      history: { replaceState: (_d: unknown, _u: string, url?: string) => void replaced.push(url ?? '') },
      sessionStorage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
      },
    } as Parameters<typeof installWebBridge>[0];
    expect(await installWebBridge(page)).toBe('web');
    // The code leaves the address bar before anything else happens.
    expect(replaced).toEqual(['/']);
    const status = await statusOf(page);
    expect(status.ok).toBe(true);

    // A reload: no code in the address, the secret from sessionStorage.
    const reload = { ...page, postdesk: undefined, location: { ...location, hash: '' } };
    expect(await installWebBridge(reload)).toBe('web');
    const again = await statusOf(reload);
    expect(again.ok).toBe(true);

    // Another tab with the same (used) link and no session of its own is refused.
    const other = { location, sessionStorage: { getItem: () => null, setItem: () => undefined } };
    expect(await installWebBridge(other)).toBe('refused');
    expect((other as { postdesk?: unknown }).postdesk).toBeUndefined();
  });
});

describe('one-time codes', () => {
  let t: TestWebHost;
  let host: WebHost;
  beforeAll(async () => {
    t = await startTestWebHost('pd-web-codes-');
    host = t.web.host;
  });
  afterAll(() => t.close());

  it('an unused code expires', async () => {
    const link = host.newLink({ ttlMs: 30 });
    await new Promise((r) => setTimeout(r, 60));
    expect((await exchange(host.origin, codeOf(link))).status).toBe(403);
    const fresh = host.newLink({ ttlMs: 10_000 });
    expect((await exchange(host.origin, codeOf(fresh))).status).toBe(200);
  });

  it('a page of another origin cannot trade a code', async () => {
    const link = host.newLink();
    const res = await fetch(`${host.origin}${SESSION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ code: codeOf(link) }),
    });
    expect(res.status).toBe(403);
    // Refused before the code was looked at: it still works for our page.
    expect((await exchange(host.origin, codeOf(link))).status).toBe(200);
  });
});
