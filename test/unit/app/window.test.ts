import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMediaRegistry } from '../../../src-main/core/bridge/media-registry';
import { desktopPreviewUrl } from '../../../src-main/core/bridge/media-url';

// Electron is the edge: BrowserWindow, its webContents and session record what the window sets up.
type Handler = (...args: never[]) => unknown;
interface FakeWin {
  options: Record<string, unknown>;
  loaded: string[];
  wcOn: Map<string, Handler>;
  winOnce: Map<string, Handler>;
  openHandler: Handler | null;
  shown: number;
}
const wins: FakeWin[] = [];
const session = {
  permissionRequest: null as Handler | null,
  permissionCheck: null as Handler | null,
  headers: null as Handler | null,
  handled: new Map<string, Handler>(),
};
const opened: string[] = [];
const privileged: unknown[] = [];

vi.mock('electron', () => {
  const ses = {
    setPermissionRequestHandler: (h: Handler) => (session.permissionRequest = h),
    setPermissionCheckHandler: (h: Handler) => (session.permissionCheck = h),
    webRequest: { onHeadersReceived: (h: Handler) => (session.headers = h) },
    protocol: { handle: (scheme: string, h: Handler) => session.handled.set(scheme, h) },
  };
  class BrowserWindow {
    readonly rec: FakeWin;
    readonly webContents: unknown;
    constructor(options: Record<string, unknown>) {
      const rec: FakeWin = {
        options,
        loaded: [],
        wcOn: new Map(),
        winOnce: new Map(),
        openHandler: null,
        shown: 0,
      };
      wins.push(rec);
      this.rec = rec;
      this.webContents = {
        session: ses,
        on: (e: string, h: Handler) => rec.wcOn.set(e, h),
        setWindowOpenHandler: (h: Handler) => (rec.openHandler = h),
      };
    }
    once(e: string, h: Handler) {
      this.rec.winOnce.set(e, h);
    }
    show() {
      this.rec.shown++;
    }
    async loadURL(url: string) {
      this.rec.loaded.push(url);
    }
  }
  return {
    BrowserWindow,
    shell: { openExternal: async (u: string) => void opened.push(u) },
    protocol: { registerSchemesAsPrivileged: (s: unknown[]) => privileged.push(...s) },
    net: { fetch: async () => new Response('x') },
  };
});

const win = await import('../../../src-main/app/window');

let dir: string;
let w: FakeWin;
const registry = createMediaRegistry({ previewUrl: desktopPreviewUrl });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-window-'));
  await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside the renderer');
  win.createMainWindow({
    preloadPath: '/app/out/preload/index.cjs',
    rendererDir: join(dir, 'renderer'),
    media: registry,
    externalHosts: () => ['linkedin.com', 'service.example'],
  });
  w = wins[0]!;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  opened.length = 0;
});

const prevented = () => {
  let p = false;
  return { event: { preventDefault: () => (p = true) }, was: () => p };
};

describe('the main window', () => {
  it('isolates and sandboxes the renderer, with no Node and web security on', () => {
    const prefs = w.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(w.loaded).toEqual([win.APP_ENTRY]);
  });

  it('sets a strict CSP on every response of its session', () => {
    let out: { responseHeaders: Record<string, string[]> } | null = null;
    (session.headers as unknown as (d: unknown, cb: (r: typeof out) => void) => void)(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'x-other': ['1'] } },
      (r) => (out = r),
    );
    const headers = out!.responseHeaders;
    expect(Object.keys(headers).filter((k) => k.toLowerCase() === 'content-security-policy')).toHaveLength(1);
    const csp = headers['Content-Security-Policy']![0]!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("img-src 'self' postdesk-media: data: blob:");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(headers['x-other']).toEqual(['1']);
  });

  it('serves its renderer with the CSP, and nothing outside the renderer folder', async () => {
    const handler = session.handled.get(win.APP_SCHEME) as unknown as (r: {
      url: string;
    }) => Promise<Response>;
    const page = await handler({ url: `${win.APP_ORIGIN}/index.html` });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await handler({ url: `${win.APP_ORIGIN}/assets/app.js` })).headers.get('content-type')).toMatch(
      /javascript/,
    );
    for (const url of [
      `${win.APP_ORIGIN}/../secret.txt`,
      `${win.APP_ORIGIN}/%2e%2e/secret.txt`,
      `${win.APP_ORIGIN}/..%2fsecret.txt`,
    ]) {
      expect(await (await handler({ url })).text()).not.toContain('outside the renderer');
    }
    expect(session.handled.has('postdesk-media')).toBe(true);
  });

  it('denies every permission request and check', () => {
    let granted: boolean | null = null;
    (session.permissionRequest as unknown as (wc: unknown, p: string, cb: (g: boolean) => void) => void)(
      {},
      'media',
      (g) => (granted = g),
    );
    expect(granted).toBe(false);
    expect((session.permissionCheck as unknown as () => boolean)()).toBe(false);
  });

  it('never navigates away; an allowlisted https link opens in the browser instead', async () => {
    const nav = w.wcOn.get('will-navigate') as unknown as (e: unknown) => void;
    const a = prevented();
    nav({ ...a.event, url: 'https://www.linkedin.com/feed/' });
    const b = prevented();
    nav({ ...b.event, url: 'https://evil.example/phish' });
    const c = prevented();
    nav({ ...c.event, url: 'http://linkedin.com/insecure' });
    await Promise.resolve();
    expect([a.was(), b.was(), c.was()]).toEqual([true, true, true]);
    expect(opened).toEqual(['https://www.linkedin.com/feed/']);
    const frame = w.wcOn.get('will-frame-navigate') as unknown as (e: unknown) => void;
    const d = prevented();
    frame({ ...d.event, url: `${win.APP_ORIGIN}/index.html`, isMainFrame: false });
    expect(d.was()).toBe(true);
    const attach = prevented();
    (w.wcOn.get('will-attach-webview') as unknown as (e: unknown) => void)(attach.event);
    expect(attach.was()).toBe(true);
  });

  it('denies window.open, opening only allowlisted https links outside', async () => {
    const open = w.openHandler as unknown as (d: { url: string }) => { action: string };
    expect(open({ url: 'https://service.example/dashboard' })).toEqual({ action: 'deny' });
    expect(open({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'https://user:pw@linkedin.com/' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(opened).toEqual(['https://service.example/dashboard']);
  });

  it('knows its renderer by origin only', () => {
    expect(win.isRendererUrl(`${win.APP_ORIGIN}/index.html#/posts`)).toBe(true);
    expect(win.isRendererUrl('postdesk-app://other/index.html')).toBe(false);
    expect(win.isRendererUrl('http://localhost:5173/', null)).toBe(false);
    expect(win.isRendererUrl('http://localhost:5173/#/x', 'http://localhost:5173')).toBe(true);
    expect(win.isRendererUrl('file:///app/index.html')).toBe(false);
  });

  it('registers its schemes as privileged in one call', () => {
    win.registerPrivilegedSchemes();
    expect(privileged.map((s) => (s as { scheme: string }).scheme)).toEqual([
      'postdesk-app',
      'postdesk-media',
    ]);
  });
});
