import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../src-main/core/api/client';
import { hashFile } from '../../src-main/core/media/hash';
import { openMediaStore } from '../../src-main/core/media/media-store';
import { UploadError, createUploader } from '../../src-main/core/media/upload';
import type { UploadEvent } from '../../src-main/core/media/upload';
import { openStore } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { demoFixture } from '../helpers/sandbox';
import { startClientSandbox, type ClientSandbox } from '../helpers/client-sandbox';
import type { TestSandbox } from '../helpers/sandbox';

let env: ClientSandbox;
let sb: TestSandbox;
let dir: string;
let client: ApiClient;

beforeAll(async () => {
  env = await startClientSandbox('pd-media-queue-');
  ({ sb, dir, client } = env);
});
afterAll(async () => {
  await env?.close();
});

/** `n` PNGs with distinct bytes (a PNG ignores what follows its end chunk). */
function distinctImages(n: number, tag: string): string[] {
  const png = readFileSync(mediaFixtures().png);
  return Array.from({ length: n }, (_, i) => {
    const p = join(dir, `${tag}-${i}.png`);
    writeFileSync(p, Buffer.concat([png, Buffer.from(`${tag} ${i}`)]));
    return p;
  });
}

/** The most reservations that were open (reserved, not yet completed or failed) at one moment. */
function peakOpen(events: readonly UploadEvent[]): number {
  const open = new Set<string>();
  let peak = 0;
  for (const e of events) {
    if (e.type === 'reserved') open.add(e.file);
    if (e.type === 'completed' || e.type === 'failed') open.delete(e.file);
    peak = Math.max(peak, open.size);
  }
  return peak;
}

it('keeps reservations in flight at the concurrency (3 by default) and never past the 10-pending limit', async () => {
  await sb.control.reset();
  const events: UploadEvent[] = [];
  const def = await createUploader({
    api: client,
    store: openStore(join(dir, 'q1.db')),
    onEvent: (e) => events.push(e),
  }).uploadMany(distinctImages(5, 'queue'));
  expect(def.every((o) => o.ok)).toBe(true);
  expect(peakOpen(events)).toBe(3);

  events.length = 0;
  const wide = createUploader({
    api: client,
    store: openStore(join(dir, 'q2.db')),
    concurrency: 50,
    onEvent: (e) => events.push(e),
  });
  const all = await wide.uploadMany(distinctImages(12, 'wide'));
  expect(all.filter((o) => !o.ok).map((o) => (o.ok ? '' : o.error.message))).toEqual([]);
  expect(peakOpen(events)).toBeGreaterThan(3);
  expect(peakOpen(events)).toBeLessThanOrEqual(10);
  expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 17 } });
});

it('turns a full media storage (429) into a message that says what to do', async () => {
  await sb.control.reset(demoFixture({ storageUsedObjects: 2000 }));
  const [file] = distinctImages(1, 'quota');
  const out = await createUploader({ api: client, store: openStore(join(dir, 'quota.db')) }).uploadMany([
    file!,
  ]);
  const error = out[0]?.ok === false ? out[0].error : null;
  expect(error).toBeInstanceOf(UploadError);
  expect(error?.kind).toBe('quota');
  expect(error?.message).toMatch(
    /media storage quota exceeded \(at most 10 pending uploads, 2,000 objects or 20 GiB per account\); let pending uploads finish or delete media, then retry$/,
  );
  await sb.control.reset();
});

it('an asset id already taken by other content (409) is reported, then the next try starts a fresh asset', async () => {
  await sb.control.reset();
  const [a, b] = distinctImages(2, 'conflict');
  const first = await createUploader({ api: client, store: openStore(join(dir, 'c1.db')) }).upload(a!);

  // Another store that, say, was copied from elsewhere, holds an unfinished upload of other bytes under that id.
  const store = openStore(join(dir, 'c2.db'));
  const media = openMediaStore(store);
  const digests = await hashFile(b!);
  const st = statSync(b!);
  media.insert({
    scope: client.baseUrl,
    runId: null,
    assetId: first.assetId,
    path: b!,
    size: st.size,
    mtimeMs: st.mtimeMs,
    digests,
    contentType: 'image/png',
  });
  const uploader = createUploader({ api: client, store });
  const resumed = await uploader.resumeUploads();
  const error = resumed[0]?.ok === false ? resumed[0].error : null;
  expect(error?.kind).toBe('conflict');
  expect(error?.message).toContain(
    `asset ${first.assetId} is already reserved with other content (MEDIA_UPLOAD_CONFLICT)`,
  );
  expect(media.unfinished()).toEqual([]);

  const retry = await uploader.upload(b!);
  expect(retry.assetId).not.toBe(first.assetId);
  expect(await sb.control.state()).toMatchObject({ media: { uploaded: 2, pending: 0 } });
});

it('bytes another machine already uploaded: the service answers with its asset, which this store adopts', async () => {
  await sb.control.reset();
  const [file] = distinctImages(1, 'shared');
  const first = await createUploader({ api: client, store: openStore(join(dir, 'm1.db')) }).upload(file!);
  const store = openStore(join(dir, 'm2.db'));
  const second = await createUploader({ api: client, store }).upload(file!);
  expect(second).toMatchObject({ assetId: first.assetId, alreadyUploaded: true });
  expect(openMediaStore(store).all()).toEqual([
    expect.objectContaining({ assetId: first.assetId, state: 'completed' }),
  ]);
  expect(await sb.control.state()).toMatchObject({ media: { uploaded: 1, pending: 0 } });
});
