import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMediaRegistry } from '../../../src-main/core/bridge/media-registry';
import { desktopPreviewUrl } from '../../../src-main/host/media-url';
import { electronFake, FakeEvent, type FakeBrowserWindow } from '../../helpers/electron-fake';

vi.mock('electron', () => electronFake.module);

const win = await import('../../../src-main/app/window');

let dir: string;
let w: FakeBrowserWindow;
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
  w = electronFake.state.windows[0]!;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  electronFake.state.openedExternal.length = 0;
});

const opened = electronFake.state.openedExternal;
/** Emits an Electron-style event on the window's webContents; answers whether a handler prevented it. */
const emitted = (name: string, fields: Record<string, unknown> = {}) => {
  const event = Object.assign(new FakeEvent(), fields);
  w.webContents.emit(name, event);
  return event.defaultPrevented;
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
    expect(w.webContents.loaded).toEqual([win.APP_ENTRY]);
  });

  it('shows itself once it is ready to show, not before', () => {
    expect(w.options.show).toBe(false);
    expect(w.isVisible()).toBe(false);
    w.emit('ready-to-show');
    expect(w.isVisible()).toBe(true);
    expect(w.listenerCount('ready-to-show')).toBe(0);
  });

  it('sets a strict CSP on every response of its session', () => {
    let out: { responseHeaders: Record<string, string[]> } | null = null;
    (
      w.webContents.session.headersReceivedListener as unknown as (
        d: unknown,
        cb: (r: typeof out) => void,
      ) => void
    )(
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
    const handler = w.webContents.session.protocols.get(win.APP_SCHEME) as unknown as (r: {
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
    expect(w.webContents.session.protocols.has('postdesk-media')).toBe(true);
  });

  it('denies every permission request and check', () => {
    let granted: boolean | null = null;
    (
      w.webContents.session.permissionRequestHandler as unknown as (
        wc: unknown,
        p: string,
        cb: (g: boolean) => void,
      ) => void
    )({}, 'media', (g) => (granted = g));
    expect(granted).toBe(false);
    expect((w.webContents.session.permissionCheckHandler as unknown as () => boolean)()).toBe(false);
  });

  it('never navigates away; an allowlisted https link opens in the browser instead', async () => {
    const a = emitted('will-navigate', { url: 'https://www.linkedin.com/feed/' });
    const b = emitted('will-navigate', { url: 'https://evil.example/phish' });
    const c = emitted('will-navigate', { url: 'http://linkedin.com/insecure' });
    await Promise.resolve();
    expect([a, b, c]).toEqual([true, true, true]);
    expect(opened).toEqual(['https://www.linkedin.com/feed/']);
    expect(emitted('will-frame-navigate', { url: `${win.APP_ORIGIN}/index.html`, isMainFrame: false })).toBe(
      true,
    );
    expect(emitted('will-attach-webview')).toBe(true);
  });

  it('denies window.open, opening only allowlisted https links outside', async () => {
    const open = w.webContents.windowOpenHandler as unknown as (d: { url: string }) => { action: string };
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
    expect(electronFake.state.privilegedSchemes.map((s) => (s as { scheme: string }).scheme)).toEqual([
      'postdesk-app',
      'postdesk-media',
    ]);
  });
});
