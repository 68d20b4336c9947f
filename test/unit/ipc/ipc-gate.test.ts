import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { CHANNELS } from '../../../src-shared/ipc/contract';
import { DROP_GRANT_CHANNEL } from '../../../src-shared/ipc/files';
import { makeBridge, type TestBridge } from './helpers';
import { electronFake } from '../../helpers/electron-fake';

// The Electron runtime is the one true edge here: ipcMain records handlers, windows and frames are plain objects.
vi.mock('electron', () => electronFake.module);
const handlers = electronFake.state.ipcHandlers;

const { registerIpcHandlers } = await import('../../../src-main/app/ipc-gate');
const { isRendererUrl, APP_ENTRY } = await import('../../../src-main/app/window');

interface FakeFrame {
  url: string;
}
function fakeWindow(url = APP_ENTRY) {
  const mainFrame: FakeFrame = { url };
  const sent: [string, unknown][] = [];
  const state = { loading: false };
  const webContents = {
    mainFrame,
    send: (c: string, p: unknown) => void sent.push([c, p]),
    isLoading: () => state.loading,
  };
  let destroyed = false;
  const win = { webContents, isDestroyed: () => destroyed } as unknown as BrowserWindow;
  return { win, mainFrame, webContents, sent, state, destroy: () => (destroyed = true) };
}

let tb: TestBridge;
let w: ReturnType<typeof fakeWindow>;
let gate: ReturnType<typeof registerIpcHandlers>;

const call = (name: string, event: Partial<IpcMainInvokeEvent>, input?: unknown) => {
  const h = handlers.get(name);
  if (!h) throw new Error(`no handler for ${name}`);
  return h(event, input) as Promise<{
    ok: boolean;
    value?: unknown;
    error?: { kind: string; issues?: unknown[] };
  }>;
};
const trusted = () => ({ sender: w.win.webContents, senderFrame: w.win.webContents.mainFrame }) as never;

beforeAll(async () => {
  tb = await makeBridge();
});
afterAll(async () => {
  gate?.dispose();
  await tb.close();
});
beforeEach(() => {
  gate?.dispose();
  handlers.clear();
  w = fakeWindow();
  gate = registerIpcHandlers({
    dispatcher: tb.bridge.dispatcher,
    window: () => w.win,
    isTrustedUrl: (u) => isRendererUrl(u, null),
    grants: tb.bridge.grants,
  });
});

describe('the IPC gate', () => {
  it("registers exactly the invoke channels of the contract, each once, and the preload's drop channel", () => {
    const invokes = [
      ...CHANNELS.filter((c) => c.def.kind === 'invoke').map((c) => c.name),
      DROP_GRANT_CHANNEL,
    ];
    expect([...handlers.keys()].sort()).toEqual([...invokes].sort());
    expect(gate.channels).toHaveLength(invokes.length);
  });

  it('answers our window top frame', async () => {
    const res = await call('app:info', trusted());
    expect(res).toEqual({ ok: true, value: expect.objectContaining({ host: 'electron', version: 'test' }) });
    expect(await call('secrets:has', trusted())).toEqual({ ok: true, value: false });
  });

  it('refuses a sub-frame of our window', async () => {
    const iframe = { url: APP_ENTRY };
    const res = await call('secrets:has', { sender: w.win.webContents, senderFrame: iframe } as never);
    expect(res).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('refuses another webContents, even one showing our renderer', async () => {
    const other = fakeWindow();
    const res = await call(
      'secrets:set',
      {
        sender: other.win.webContents,
        senderFrame: other.win.webContents.mainFrame,
      } as never,
      { api_key: 'pk_from_elsewhere_123456' },
    );
    expect(res).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await call('secrets:has', trusted())).toEqual({ ok: true, value: false });
  });

  it('refuses our top frame once it shows another origin, a missing frame, or a closed window', async () => {
    w.mainFrame.url = 'https://evil.example/';
    expect(await call('app:info', trusted())).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    w.mainFrame.url = APP_ENTRY;
    expect(await call('app:info', { sender: w.win.webContents, senderFrame: null } as never)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    w.destroy();
    expect(await call('app:info', trusted())).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('refuses input that does not parse, with issues and no stack', async () => {
    const res = await call('settings:update', trusted(), { concurrency: 0, base_url: 'not a url' });
    expect(res.ok).toBe(false);
    expect(res.error?.kind).toBe('invalid_input');
    expect(res.error?.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'concurrency' }),
        expect.objectContaining({ path: 'base_url' }),
      ]),
    );
    expect(JSON.stringify(res)).not.toMatch(/\n\s+at /);
    const extra = await call('posts:delete', trusted(), { nope: 1 });
    expect(extra).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('sends events to our window only while it shows our renderer', () => {
    expect(tb.bridge.events.emit('app:didNotify', { level: 'info', message: 'hello' })).toBe(true);
    expect(w.sent).toEqual([['app:didNotify', { level: 'info', message: 'hello' }]]);
    w.mainFrame.url = 'https://evil.example/';
    expect(tb.bridge.events.emit('app:didNotify', { level: 'info', message: 'again' })).toBe(false);
    expect(w.sent).toHaveLength(1);
  });

  it('keeps a deep link for the page while our window is still loading, not once a live page heard it', async () => {
    w.state.loading = true;
    tb.bridge.routes.open({ kind: 'post', id: 'd1' });
    expect(await call('app:pendingRoute', trusted())).toEqual({
      ok: true,
      value: { route: { kind: 'post', id: 'd1' } },
    });
    w.state.loading = false;
    tb.bridge.routes.open({ kind: 'run', id: 'r1' });
    expect(w.sent.at(-1)).toEqual(['app:didOpenRoute', { kind: 'run', id: 'r1' }]);
    // A reload of the page that opened it does not open it again.
    expect(await call('app:pendingRoute', trusted())).toEqual({ ok: true, value: { route: null } });
  });

  it('removes every handler on dispose', () => {
    gate.dispose();
    expect(handlers.size).toBe(0);
  });
});
