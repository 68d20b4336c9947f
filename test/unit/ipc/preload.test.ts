import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, listenerName } from '../../../src-shared/ipc/contract';

// The renderer side of Electron, recorded: what the preload exposes, invokes and listens to.
const exposed = new Map<string, unknown>();
const invoked: [string, unknown][] = [];
const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
const paths = new Map<object, string>();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (channel: string, input: unknown) => {
      invoked.push([channel, input]);
      // main, as the preload sees it: grants for the paths it was sent, media for the grants
      if (channel === 'files:grantDropped') {
        const items = (input as { items: { path: string; name: string }[] }).items;
        const files = items.map((i) => ({ grant: `grant:${i.path}`, name: i.name, size: 1, folder: false }));
        return { ok: true, value: { files, skipped: [] } };
      }
      if (channel === 'media:add') {
        const g = (input as { grants: string[] }).grants;
        return { ok: true, value: { files: g.map((x) => ({ id: x })), skipped: [] } };
      }
      return { ok: true, value: channel };
    },
    on: (channel: string, l: (...a: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(l);
    },
    removeListener: (channel: string, l: (...a: unknown[]) => void) => listeners.get(channel)?.delete(l),
  },
  webUtils: { getPathForFile: (f: object) => paths.get(f) ?? '' },
}));

type Api = Record<string, Record<string, (...a: unknown[]) => unknown>> & { host: string };
let api: Api;

beforeAll(async () => {
  await import('../../../src-preload/index');
  api = exposed.get('postdesk') as Api;
});

describe('the preload', () => {
  it('exposes only window.postdesk, built from the contract', () => {
    expect([...exposed.keys()]).toEqual(['postdesk']);
    expect(api.host).toBe('electron');
    for (const c of CHANNELS) {
      const key = c.def.kind === 'invoke' ? c.verb : listenerName(c.verb);
      expect({ [c.name]: typeof api[c.domain]?.[key] }).toEqual({ [c.name]: 'function' });
    }
  });

  it('never hands the page ipcRenderer or a way to name a channel', () => {
    const everything =
      JSON.stringify(Object.keys(api)) + JSON.stringify(Object.values(api).map((d) => Object.keys(d)));
    expect(everything).not.toMatch(/ipcRenderer|invoke"|send"|"on"/);
  });

  it('invokes each channel by its own name with the input as given', async () => {
    invoked.length = 0;
    const res = await api.posts!.list!({ status: 'scheduled' });
    expect(res).toEqual({ ok: true, value: 'posts:list' });
    await api.accounts!.list!();
    expect(invoked).toEqual([
      ['posts:list', { status: 'scheduled' }],
      ['accounts:list', undefined],
    ]);
  });

  it('subscribes with on<Event>, passes the payload only, and unsubscribes', () => {
    const got: unknown[] = [];
    const off = api.runs!.onDidStepRun!((p: unknown) => got.push(p)) as () => void;
    const [l] = [...(listeners.get('runs:didStepRun') ?? [])];
    l!({ sender: 'the event object stays in the preload' }, { run_id: 'r1' });
    expect(got).toEqual([{ run_id: 'r1' }]);
    off();
    expect(listeners.get('runs:didStepRun')?.size).toBe(0);
  });

  it('reads dropped files’ paths here, has main grant them, and registers the grants through media:add', async () => {
    invoked.length = 0;
    const a = { name: 'a.png', size: 1, type: 'image/png', arrayBuffer: async () => new ArrayBuffer(1) };
    const b = { name: 'pasted.png', size: 1, type: 'image/png', arrayBuffer: async () => new ArrayBuffer(1) };
    paths.set(a, '/home/me/a.png');
    const res = await api.media!.addDropped!([a, b]);
    expect(invoked).toEqual([
      ['files:grantDropped', { items: [{ path: '/home/me/a.png', name: 'a.png' }] }],
      ['media:add', { grants: ['grant:/home/me/a.png'] }],
    ]);
    expect(res).toEqual({
      ok: true,
      value: {
        files: [{ id: 'grant:/home/me/a.png' }],
        skipped: [{ name: 'pasted.png', reason: 'not a file on this computer' }],
      },
    });
  });

  it('sends main no path for an object the page made up, and the page no path back', async () => {
    invoked.length = 0;
    const madeUp = {
      name: '/etc/passwd',
      size: 1,
      type: 'text/plain',
      arrayBuffer: async () => new ArrayBuffer(1),
    };
    const res = await api.files!.grant!([madeUp]);
    expect(invoked).toEqual([]);
    expect(res).toEqual({
      ok: true,
      value: { files: [], skipped: [{ name: '/etc/passwd', reason: 'not a file on this computer' }] },
    });
  });
});
