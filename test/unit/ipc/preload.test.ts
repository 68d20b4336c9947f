import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, listenerName } from '../../../src-shared/ipc/contract';
import { electronFake } from '../../helpers/electron-fake';

vi.mock('electron', () => electronFake.module);

const { state } = electronFake;
const ipcRenderer = electronFake.module.ipcRenderer;
const answer = (channel: string, fn: (input: never) => unknown) =>
  electronFake.module.ipcMain.handle(channel, (_event, input) => fn(input as never));
// main, as the preload sees it: grants for the paths it was sent, media for the grants
answer('files:grantDropped', (input: { items: { path: string; name: string }[] }) => {
  const files = input.items.map((i) => ({ grant: `grant:${i.path}`, name: i.name, size: 1, folder: false }));
  return { ok: true, value: { files, skipped: [] } };
});
answer('media:add', (input: { grants: string[] }) => ({
  ok: true,
  value: { files: input.grants.map((x) => ({ id: x })), skipped: [] },
}));
for (const channel of ['posts:list', 'accounts:list']) answer(channel, () => ({ ok: true, value: channel }));

type Api = Record<string, Record<string, (...a: unknown[]) => unknown>> & { host: string };
let api: Api;

beforeAll(async () => {
  await import('../../../src-preload/index');
  api = state.exposed.get('postdesk') as Api;
});

describe('the preload', () => {
  it('exposes only window.postdesk, built from the contract', () => {
    expect([...state.exposed.keys()]).toEqual(['postdesk']);
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
    state.rendererInvoked.length = 0;
    const res = await api.posts!.list!({ status: 'scheduled' });
    expect(res).toEqual({ ok: true, value: 'posts:list' });
    await api.accounts!.list!();
    expect(state.rendererInvoked).toEqual([
      { channel: 'posts:list', args: [{ status: 'scheduled' }] },
      { channel: 'accounts:list', args: [undefined] },
    ]);
  });

  it('subscribes with on<Event>, passes the payload only, and unsubscribes', () => {
    const got: unknown[] = [];
    const off = api.runs!.onDidStepRun!((p: unknown) => got.push(p)) as () => void;
    expect(ipcRenderer.listenerCount('runs:didStepRun')).toBe(1);
    ipcRenderer.emit(
      'runs:didStepRun',
      { sender: 'the event object stays in the preload' },
      { run_id: 'r1' },
    );
    expect(got).toEqual([{ run_id: 'r1' }]);
    off();
    expect(ipcRenderer.listenerCount('runs:didStepRun')).toBe(0);
  });

  it('reads dropped files’ paths here, has main grant them, and registers the grants through media:add', async () => {
    state.rendererInvoked.length = 0;
    // a was dropped from disk; b was pasted, a File with no path behind it
    const a = new File([new Uint8Array(1)], 'a.png', { type: 'image/png' });
    const b = new File([new Uint8Array(1)], 'pasted.png', { type: 'image/png' });
    state.filePaths.set(a, '/home/me/a.png');
    const res = await api.media!.addDropped!([a, b]);
    expect(state.rendererInvoked).toEqual([
      { channel: 'files:grantDropped', args: [{ items: [{ path: '/home/me/a.png', name: 'a.png' }] }] },
      { channel: 'media:add', args: [{ grants: ['grant:/home/me/a.png'] }] },
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
    state.rendererInvoked.length = 0;
    const madeUp = {
      name: '/etc/passwd',
      size: 1,
      type: 'text/plain',
      arrayBuffer: async () => new ArrayBuffer(1),
    };
    const res = await api.files!.grant!([madeUp]);
    expect(state.rendererInvoked).toEqual([]);
    expect(res).toEqual({
      ok: true,
      value: { files: [], skipped: [{ name: '/etc/passwd', reason: 'not a file on this computer' }] },
    });
  });
});
