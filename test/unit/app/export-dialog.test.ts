import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createThumbnails } from '../../../src-main/host/thumbnails';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dialog, SaveDialogOptions } from 'electron';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogSaver } from '../../../src-main/app/dialogs';
import { assembleBridge, type AssembledBridge } from '../../../src-main/core/bridge/assemble';
import { desktopPreviewUrl } from '../../../src-main/host/media-url';
import { MemorySecretStore } from '../../../src-main/host/memory-secret-store';
import type { BridgeSession } from '../../../src-main/core/bridge/host-ports';
import { createBridgeSession } from '../../../src-main/host/session';
import { openLocal } from '../../../src-main/core/services';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../../helpers/sandbox';
import { CONFIRMS_ADDRESS } from '../../helpers/confirm';
import { scaled } from '../../helpers/timeouts';

/**
 * The desktop's export: `exports:run` opens main's own save dialog (Electron's dialog is the faked edge, answered
 * as a person would), and main writes the file there, private. The page names no path; it learns only the name.
 */

let sb: TestSandbox;
let dir: string;
let bridge: AssembledBridge;
let session: BridgeSession;
let closeStore: () => void;
let answer: { canceled: boolean; filePath?: string } = { canceled: true };
const asked: SaveDialogOptions[] = [];
const dialog = {
  showSaveDialog: async (...args: unknown[]) => {
    asked.push(args.at(-1) as SaveDialogOptions);
    return answer;
  },
} as unknown as Pick<Dialog, 'showSaveDialog'>;

const run = (format: 'csv' | 'json') =>
  bridge.dispatcher.invoke('exports:run', {
    what: { kind: 'posts' },
    format,
    export_id: 'desk-1',
  }) as Promise<
    { ok: true; value: Record<string, unknown> } | { ok: false; error: { kind: string; message: string } }
  >;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dir = await mkdtemp(join(tmpdir(), 'postdesk-export-dialog-'));
  const local = openLocal(join(dir, 'data'), new MemorySecretStore());
  closeStore = () => local.store.close();
  session = createBridgeSession({ secrets: local.secrets, settings: local.settings, env: {} });
  bridge = assembleBridge({
    host: 'electron',
    version: 'test',
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    thumbnails: createThumbnails(),
    stagingDir: join(dir, 'staging'),
    saver: dialogSaver(dialog, () => null),
    confirm: CONFIRMS_ADDRESS,
    deliveryWatchMs: false,
  });
  expect(
    (await bridge.dispatcher.invoke('connection:connect', { base_url: sb.url, api_key: TEST_KEYS.a })).ok,
  ).toBe(true);
  const res = await sb.api('POST', '/api/cli/posts', {
    body: {
      caption: 'From the desktop',
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
      action: 'draft',
    },
  });
  expect(res.status).toBe(201);
}, scaled(60_000));

afterAll(async () => {
  bridge?.close();
  await session?.close();
  closeStore?.();
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('exports:run in the desktop app', () => {
  it('writes nothing when the person cancels main’s dialog', async () => {
    answer = { canceled: true };
    expect(await run('csv')).toEqual({ ok: true, value: { outcome: 'cancelled' } });
    expect(asked.at(-1)).toMatchObject({ defaultPath: expect.stringMatching(/^postdesk-posts-.*\.csv$/) });
  });

  it('writes the file where the person chose, private (0600) even over an older file', async () => {
    const file = join(dir, 'chosen', 'mine.csv');
    await rm(join(dir, 'chosen'), { recursive: true, force: true });
    await mkdir(join(dir, 'chosen'));
    await writeFile(file, 'old', { mode: 0o644 });
    answer = { canceled: false, filePath: file };
    const r = await run('csv');
    expect(r).toEqual({ ok: true, value: { outcome: 'saved', name: 'mine.csv', records: 1 } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const rows = parse(await readFile(file), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((x) => x.caption)).toEqual(['From the desktop']);
    // No partial file is left beside it.
    expect(await readdir(join(dir, 'chosen'))).toEqual(['mine.csv']);
  });

  it('says plainly when the chosen place cannot be written, and leaves nothing there', async () => {
    answer = { canceled: false, filePath: join(dir, 'no-such-folder', 'x.json') };
    const r = await run('json');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('unavailable');
      expect(r.error.message).toMatch(/^The export could not be written there\./);
      expect(r.error.message).not.toMatch(/ENOENT|no-such-folder|\.partial/);
    }
  });
});
