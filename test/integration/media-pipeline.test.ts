import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-main/core/api/client';
import type { ApiClient } from '../../src-main/core/api/client';
import { checkFile } from '../../src-main/core/media/check';
import { convertToMp4 } from '../../src-main/core/media/convert';
import { hashFile } from '../../src-main/core/media/hash';
import { UploadError, createUploader } from '../../src-main/core/media/upload';
import type { UploadEvent } from '../../src-main/core/media/upload';
import { openStore } from '../../src-main/core/store/store';
import type { Store } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { TEST_KEYS, startTestSandbox } from '../helpers/sandbox';
import type { TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
let dir: string;
let store: Store;
let client: ApiClient;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pd-media-'));
  store = openStore(join(dir, 'store.db'));
  client = createApiClient({
    baseUrl: sb.url,
    apiKey: TEST_KEYS.a,
    retry: { retries: 2, minTimeoutMs: 5, maxTimeoutMs: 20 },
  });
});
afterAll(async () => {
  await client.close();
  store.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const digestsOf = (file: string) => {
  const b = readFileSync(file);
  return {
    sha256: createHash('sha256').update(b).digest('hex'),
    md5: createHash('md5').update(b).digest('hex'),
    size: b.length,
  };
};
// Through the client's own connections, which close before the sandbox does: a keep-alive connection of the
// global fetch that is still finishing a file response when the sandbox closes would hold its close for 72 s.
const download = async (url: string): Promise<Buffer> => {
  const res = await request(url, { dispatcher: client.dispatcher });
  expect(res.statusCode).toBe(200);
  return Buffer.from(await res.body.arrayBuffer());
};

describe('every fixture: checked, converted where asked, hashed, uploaded, read back byte-identical', () => {
  it('runs the whole pipeline against the sandbox', async () => {
    const fx = mediaFixtures();
    const events: UploadEvent[] = [];
    const uploader = createUploader({ api: client, store, onEvent: (e) => events.push(e) });
    const ready: { file: string; type: string }[] = [
      { file: fx.mp4, type: 'video/mp4' },
      { file: fx.mp4IndexLast, type: 'video/mp4' },
      { file: fx.mp4Rotated, type: 'video/mp4' },
      { file: fx.jpeg, type: 'image/jpeg' },
      { file: fx.png, type: 'image/png' },
      { file: fx.webp, type: 'image/webp' },
    ];
    for (const src of [fx.mov, fx.m4v, fx.webm]) {
      expect((await checkFile(src)).ok).toBe(false);
      const converted = await convertToMp4(src, { out: join(dir, `${basename(src)}.mp4`) });
      ready.push({ file: converted.output, type: 'video/mp4' });
    }

    for (const { file, type } of ready) {
      const check = await checkFile(file);
      expect(check.problems, file).toEqual([]);
      expect(check.contentType).toBe(type);
      expect(await hashFile(file)).toEqual(digestsOf(file));
    }

    const outcomes = await uploader.uploadMany(ready.map((r) => r.file));
    const assetBySha = new Map<string, string>();
    for (const [i, o] of outcomes.entries()) {
      expect(o.ok, o.ok ? '' : o.error.message).toBe(true);
      if (!o.ok) continue;
      const want = ready[i]!;
      const sha = digestsOf(want.file).sha256;
      expect(o.result).toMatchObject({ contentType: want.type, sha256: sha });
      expect(o.result.asset.mime_type).toBe(want.type);
      expect((await download(o.result.asset.public_url)).equals(readFileSync(want.file))).toBe(true);
      // Identical bytes (the M4V remuxes to exactly clip.mp4) share one asset.
      expect(assetBySha.get(sha) ?? o.result.assetId).toBe(o.result.assetId);
      assetBySha.set(sha, o.result.assetId);
    }
    expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: assetBySha.size } });
    // Each distinct content was streamed once: progress reached its size.
    const streamed = new Map<string, number>();
    for (const e of events)
      if (e.type === 'progress') streamed.set(e.assetId, Math.max(streamed.get(e.assetId) ?? 0, e.sent));
    expect(streamed.size).toBe(assetBySha.size);
    for (const o of outcomes) if (o.ok) expect(streamed.get(o.result.assetId)).toBe(o.result.bytes);
  });

  it('uploads a PNG named .mp4 as the PNG it is', async () => {
    const fx = mediaFixtures();
    const r = await createUploader({ api: client, store }).upload(fx.pngNamedMp4);
    // Same bytes as image.png, uploaded above: the service already has it.
    expect(r).toMatchObject({ contentType: 'image/png', alreadyUploaded: true });
    expect(r.asset.public_url).toMatch(/\.png$/);
    expect((await download(r.asset.public_url)).equals(readFileSync(fx.png))).toBe(true);
  });

  it('refuses oversize, truncated and unsupported files before sending a byte', async () => {
    const fx = mediaFixtures();
    const before = await sb.control.state();
    const uploader = createUploader({ api: client, store });
    const outcomes = await uploader.uploadMany([
      fx.oversizeMp4,
      fx.oversizeJpeg,
      fx.truncatedMp4,
      fx.gif,
      fx.mov,
    ]);
    const errors = outcomes.map((o) => (o.ok ? null : o.error));
    expect(errors.every((e) => e instanceof UploadError && e.kind === 'check')).toBe(true);
    expect(errors[0]?.message).toContain(
      'MP4 uploads are limited to 200 MiB (209715200 bytes); this file is 230.5 MiB',
    );
    expect(errors[1]?.message).toContain(
      'image uploads are limited to 15 MiB (15728640 bytes); this file is 16 MiB',
    );
    expect(errors[2]?.message).toMatch(/the MP4 is truncated/);
    expect(errors[3]?.message).toMatch(/GIF image is not accepted/);
    expect(errors[4]?.message).toMatch(/converted to MP4/);
    expect(await sb.control.state()).toEqual(before);
  });

  it('a second upload of an unchanged file skips hashing and the PUT', async () => {
    const fx = mediaFixtures();
    const events: UploadEvent[] = [];
    const r = await createUploader({ api: client, store, onEvent: (e) => events.push(e) }).upload(fx.jpeg);
    expect(r.alreadyUploaded).toBe(true);
    expect(events.find((e) => e.type === 'hashed')).toMatchObject({ cached: true });
    expect(events.some((e) => e.type === 'hashing' || e.type === 'progress')).toBe(false);
  });
});
