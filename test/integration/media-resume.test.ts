import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../src-main/core/api/client';
import type { ApiClient } from '../../src-main/core/api/client';
import { openMediaStore } from '../../src-main/core/media/media-store';
import { createUploader } from '../../src-main/core/media/upload';
import type { UploadEvent } from '../../src-main/core/media/upload';
import { openStore } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { TEST_KEYS, startTestSandbox } from '../helpers/sandbox';
import type { TestSandbox } from '../helpers/sandbox';

const ROOT = resolve(import.meta.dirname, '../..');
let sb: TestSandbox;
let dir: string;
let client: ApiClient;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pd-media-resume-'));
  client = createApiClient({
    baseUrl: sb.url,
    apiKey: TEST_KEYS.a,
    retry: { retries: 2, minTimeoutMs: 5, maxTimeoutMs: 20 },
  });
});
afterAll(async () => {
  await client.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

it('an address that expired between reservation and PUT is renewed for the same asset_id', async () => {
  await sb.control.reset();
  const store = openStore(join(dir, 'expiry.db'));
  const events: UploadEvent[] = [];
  let moved = false;
  const uploader = createUploader({
    api: client,
    store,
    onEvent: (e) => events.push(e),
    beforePut: async () => {
      if (moved) return;
      moved = true;
      // Past the 10-minute validity of the presigned address the sandbox just handed out.
      await sb.control.advance(11 * 60 * 1000);
    },
  });
  const r = await uploader.upload(mediaFixtures().webp);
  const reserved = events.filter((e) => e.type === 'reserved');
  expect(reserved.map((e) => e.type === 'reserved' && e.assetId)).toEqual([r.assetId, r.assetId]);
  const retry = events.find((e) => e.type === 'retry');
  expect(retry && retry.type === 'retry' ? retry.reason : '').toMatch(/answered 403 \(UPLOAD_URL_EXPIRED/);
  expect(r.alreadyUploaded).toBe(false);
  expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 1 } });
  store.close();
});

it('a process killed in the middle of its PUT resumes on the next start: same asset_id, one asset', async () => {
  await sb.control.reset();
  const file = mediaFixtures().mp4Large;
  const dbFile = join(dir, 'crash.db');
  const script = join(dir, 'upload-child.mts');
  writeFileSync(
    script,
    `import { createApiClient } from ${JSON.stringify(join(ROOT, 'src-main/core/api/client.ts'))};
     import { createUploader } from ${JSON.stringify(join(ROOT, 'src-main/core/media/upload.ts'))};
     import { openStore } from ${JSON.stringify(join(ROOT, 'src-main/core/store/store.ts'))};
     const api = createApiClient({ baseUrl: process.env.SB_URL, apiKey: process.env.SB_KEY });
     const uploader = createUploader({ api, store: openStore(process.env.DB_FILE), maxBytesPerSecond: 24 * 1024,
       onEvent: (e) => { if (e.type === 'progress') console.log('sent ' + e.sent); } });
     await uploader.upload(process.env.UPLOAD_FILE);
     console.log('finished');`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, SB_URL: sb.url, SB_KEY: TEST_KEYS.a, DB_FILE: dbFile, UPLOAD_FILE: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    child.on('exit', (_code, signal) => done(signal)),
  );
  // Kill it once a good part, but not all, of the 150 KB has gone out.
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (b: Buffer) => {
      const sent = Math.max(0, ...[...b.toString().matchAll(/sent (\d+)/g)].map((m) => Number(m[1])));
      if (sent >= 48 * 1024) done();
    });
    child.on('exit', () => fail(new Error(`the child ended before it was killed: ${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const store = openStore(dbFile);
  const before = openMediaStore(store).unfinished();
  expect(before).toHaveLength(1);
  expect(before[0]?.state).toBe('uploading');
  expect(await sb.control.state()).toMatchObject({ media: { pending: 1, uploaded: 0 } });

  // What resumes is the reservation and its asset_id; the contract has one presigned PUT with no range, so the
  // bytes go again from the first one (docs/media.md says exactly this).
  const resumed: number[] = [];
  const outcomes = await createUploader({
    api: client,
    store,
    onEvent: (e) => {
      if (e.type === 'progress') resumed.push(e.sent);
    },
  }).resumeUploads();
  expect(outcomes).toHaveLength(1);
  const o = outcomes[0]!;
  expect(o.ok, o.ok ? '' : o.error.message).toBe(true);
  if (!o.ok) return;
  expect(o.result.assetId).toBe(before[0]?.assetId);
  // The cut-off PUT left nothing usable (pending 1, uploaded 0 above), so the whole file went out in the new one.
  expect(Math.max(...resumed)).toBe(statSync(file).size);
  expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 1 } });
  const served = Buffer.from(
    await (await request(o.result.asset.public_url, { dispatcher: client.dispatcher })).body.arrayBuffer(),
  );
  expect(served.equals(readFileSync(file))).toBe(true);
  expect(openMediaStore(store).unfinished()).toEqual([]);
  store.close();
});
