/**
 * Uploads that an earlier session left unfinished are resumed when the desktop app connects. They are
 * uploads in progress like any other: the quit (and an update) must wait for them, so the resume runs
 * through the shell's UploadTracker. Real sandbox over HTTP, real SQLite store, a real upload left
 * half-done by an uploader that never gets to its PUT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createThumbnails } from '../../src-main/host/thumbnails';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UploadTracker } from '../../src-main/app/upload-tracker';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import { assembleBridge } from '../../src-main/core/bridge/assemble';
import { desktopPreviewUrl } from '../../src-main/host/media-url';
import { MemorySecretStore } from '../../src-main/host/memory-secret-store';
import { createBridgeSession } from '../../src-main/host/session';
import { openMediaStore } from '../../src-main/core/media/media-store';
import { createUploader } from '../../src-main/core/media/upload';
import { openLocal } from '../../src-main/core/services';
import { mediaFixtures } from '../helpers/media-fixtures';
import { TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { MemoryLog, until } from '../helpers/shell-fakes';

let sb: TestSandbox;
let dir: string;
let earlier: ApiClient;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'postdesk-resume-tracked-'));
  earlier = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a });
});
afterAll(async () => {
  await earlier.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

it('an upload resumed at start-up is tracked, and the quit drain waits until it has finished', async () => {
  const local = openLocal(dir, new MemorySecretStore());
  const media = openMediaStore(local.store);

  // An earlier session: reserved the asset, then never sent a byte (as if it was killed before its PUT).
  void createUploader({ api: earlier, store: local.store, beforePut: () => new Promise<void>(() => {}) })
    .upload(mediaFixtures().webp)
    .catch(() => undefined);
  await until(() => media.unfinished().length === 1, 'the interrupted upload in the store');
  expect(await sb.control.state()).toMatchObject({ media: { pending: 1, uploaded: 0 } });

  const tracker = new UploadTracker(new MemoryLog());
  const seen: string[][] = [];
  let drained: Promise<void> | null = null;
  let finishedBeforeDrainEnded = false;
  tracker.onDidChange(() => {
    seen.push(tracker.activeUploads().map((u) => u.name));
    // The user quits while the resume is under way: the drain starts at that very moment.
    drained ??= tracker.drain({ graceMs: 20_000 }).then(() => {
      finishedBeforeDrainEnded = media.unfinished().length === 0;
    });
  });

  // The desktop session resumes the saved connection at start, and the bridge resumes uploads on it.
  const session = createBridgeSession({
    secrets: local.secrets,
    settings: local.settings,
    env: { POSTDESK_BASE_URL: sb.url, POSTDESK_API_KEY: TEST_KEYS.a },
    resume: true,
  });
  const bridge = assembleBridge({
    host: 'electron',
    version: 'test',
    session,
    store: local.store,
    previewUrl: desktopPreviewUrl,
    thumbnails: createThumbnails(),
    stagingDir: join(dir, 'staging'),
    deliveryWatchMs: false,
    trackUploads: (name, work) => tracker.track(name, work),
  });
  try {
    expect(seen[0]).toEqual(['resuming interrupted uploads']);
    await until(() => drained !== null, 'the drain');
    await drained;
    expect(finishedBeforeDrainEnded).toBe(true);
    expect(seen.at(-1)).toEqual([]);
    expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 1 } });

    // Once the drain has started, a later resume (a reconnect while quitting) is refused, not started.
    const before = seen.length;
    await session.connection.connect(sb.url, TEST_KEYS.a);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.length).toBe(before);
  } finally {
    bridge.close();
    await session.close();
    local.store.close();
  }
});
