import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MediaAsset, MediaReservationResponse } from '../../src-shared/api';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox, jsonOf } from '../helpers/sandbox';

let sb: TestSandbox;
let dir: string;
let mp4: Buffer;
let png: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-media-'));
  // Real media made by ffmpeg, so the metadata assertions check real ffprobe output.
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=10',
    '-t',
    '1',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'a.mp4'),
  ]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48',
    '-frames:v',
    '1',
    join(dir, 'a.png'),
  ]);
  mp4 = readFileSync(join(dir, 'a.mp4'));
  png = readFileSync(join(dir, 'a.png'));
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => sb.control.reset());

const describeBytes = (bytes: Buffer, type: string, extra: Record<string, unknown> = {}) => ({
  content_type: type,
  content_length: bytes.length,
  content_sha256: createHash('sha256').update(bytes).digest('hex'),
  content_md5: createHash('md5').update(bytes).digest('hex'),
  ...extra,
});
const reserve = (body: unknown, key?: string) =>
  sb.api('POST', '/api/cli/media/uploads', { body, ...(key ? { key } : {}) });
const put = (
  r: { upload_url?: string | null; upload_headers?: Record<string, string> },
  bytes: Buffer,
  headers = {},
) => fetch(r.upload_url!, { method: 'PUT', headers: { ...r.upload_headers, ...headers }, body: bytes });

describe('media upload flow', () => {
  it('reserves, PUTs, completes and serves a video with ffprobe metadata and Range support', async () => {
    const res = await reserve(describeBytes(mp4, 'video/mp4'));
    expect(res.status).toBe(201);
    const r = MediaReservationResponse.parse(res.body);
    expect(r).toMatchObject({ already_uploaded: false, upload_method: 'PUT' });
    expect(r.upload_headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-md5': createHash('md5').update(mp4).digest('base64'),
    });
    expect(Date.parse(r.expires_at!) - Date.parse(await sb.control.clock())).toBe(10 * 60_000);
    expect((await put(r, mp4)).status).toBe(200);
    expect(await sb.control.state()).toMatchObject({ media: { pending: 1, uploaded: 0 } });
    const done = await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.asset_id } });
    expect(done.status).toBe(200);
    const asset = MediaAsset.parse(done.body);
    expect(asset).toMatchObject({
      id: r.asset_id,
      media_type: 'video',
      mime_type: 'video/mp4',
      bytes: mp4.length,
    });
    expect(asset.metadata).toMatchObject({ width: 320, height: 240, codec: 'h264' });
    expect(asset.metadata.duration_seconds).toBeCloseTo(1, 1);
    const whole = await fetch(asset.public_url);
    expect(Buffer.from(await whole.arrayBuffer()).equals(mp4)).toBe(true);
    const part = await fetch(asset.public_url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp4.subarray(10, 20))).toBe(true);
    // Completing again is safe; the same content again is already uploaded.
    expect(
      (await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.asset_id } })).body,
    ).toEqual(done.body);
    const same = MediaReservationResponse.parse((await reserve(describeBytes(mp4, 'video/mp4'))).body);
    expect(same).toMatchObject({ already_uploaded: true, asset_id: r.asset_id, media: { id: r.asset_id } });
  });

  it('probes images too and lets a post use the asset by asset_id', async () => {
    const r = MediaReservationResponse.parse((await reserve(describeBytes(png, 'image/png'))).body);
    await put(r, png);
    const asset = MediaAsset.parse(
      (await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.asset_id } })).body,
    );
    expect(asset.metadata).toMatchObject({ width: 64, height: 48, codec: 'png' });
    const post = await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'img',
        action: 'draft',
        media: [{ asset_id: r.asset_id }],
        targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
      },
    });
    expect(post.status).toBe(201);
    expect(post.body.social_posts[0].media).toEqual([
      { asset_id: r.asset_id, url: asset.public_url, mime_type: 'image/png' },
    ]);
  });

  it('makes asset_id retries idempotent and answers 409 for other content under the owner’s same asset_id', async () => {
    const asset_id = randomUUID();
    const a = await reserve(describeBytes(png, 'image/png', { asset_id }));
    const b = await reserve(describeBytes(png, 'image/png', { asset_id }));
    expect(a.body.asset_id).toBe(asset_id);
    expect(b.body.upload_url).toBe(a.body.upload_url);
    expect((await sb.control.state()).media.pending).toBe(1);
    const other = await reserve(describeBytes(mp4, 'video/mp4', { asset_id }));
    expect(other).toMatchObject({ status: 409, body: { code: 'MEDIA_UPLOAD_CONFLICT' } });
    // An asset_id is per owner: another owner's same id is a fresh asset of its own, not a conflict.
    const foreign = await reserve(describeBytes(png, 'image/png', { asset_id }), TEST_KEYS.b);
    expect(foreign).toMatchObject({ status: 201, body: { asset_id, already_uploaded: false } });
    expect(foreign.body.upload_url).not.toBe(a.body.upload_url);
  });

  it('answers 409 MEDIA_UPLOAD_CONFLICT when completing before the bytes arrive, 404 for unknown or foreign assets', async () => {
    const r = await reserve(describeBytes(png, 'image/png'));
    const early = await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.body.asset_id } });
    expect(early).toMatchObject({ status: 409, body: { code: 'MEDIA_UPLOAD_CONFLICT' } });
    expect(
      (await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: randomUUID() } })).status,
    ).toBe(404);
    await put(r.body, png);
    expect(
      (
        await sb.api('PATCH', '/api/cli/media/uploads', {
          body: { asset_id: r.body.asset_id },
          key: TEST_KEYS.b,
        })
      ).status,
    ).toBe(404);
  });

  it('verifies the bytes: wrong content or length answers 400 and stores nothing', async () => {
    const r = (await reserve(describeBytes(png, 'image/png'))).body;
    const wrong = Buffer.from(png);
    wrong[wrong.length - 1] = (wrong[wrong.length - 1] ?? 0) ^ 0xff;
    const bad = await put(r, wrong);
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).code).toBe('UPLOAD_INTEGRITY_MISMATCH');
    const short = await fetch(r.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: png.subarray(0, 10),
    });
    expect(short.status).toBe(400);
    expect((await jsonOf(short)).error).toBe(`content-length: must be ${png.length} as reserved (got 10)`);
    const tampered = await fetch(r.upload_url.replace(/signature=[a-f0-9]+/, `signature=${'0'.repeat(64)}`), {
      method: 'PUT',
      headers: r.upload_headers,
      body: png,
    });
    expect(tampered.status).toBe(403);
    expect((await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.asset_id } })).status).toBe(
      409,
    );
  });

  it('expires the upload address after 10 minutes on the sandbox clock (403)', async () => {
    const r = (await reserve(describeBytes(png, 'image/png'))).body;
    await sb.control.advance(10 * 60_000 + 1);
    const late = await put(r, png);
    expect(late.status).toBe(403);
    expect((await jsonOf(late)).code).toBe('UPLOAD_URL_EXPIRED');
    expect((await sb.control.state()).media.pending).toBe(0);
    const again = (await reserve(describeBytes(png, 'image/png', { asset_id: r.asset_id }))).body;
    expect(again.asset_id).toBe(r.asset_id);
    expect((await put(again, png)).status).toBe(200);
  });
});

describe('media reservation limits', () => {
  it('validates type, per-type size and hash patterns with field and limit in the message', async () => {
    const gif = await reserve(describeBytes(png, 'image/gif'));
    expect(gif.status).toBe(400);
    expect(gif.body.error).toBe(
      'content_type: must be one of "image/jpeg", "image/png", "image/webp", "video/mp4"',
    );
    const big = await reserve({ ...describeBytes(png, 'image/png'), content_length: 15 * 1024 * 1024 + 1 });
    expect(big.body.error).toBe(
      'content_length: content_length 15728641 exceeds the image/png limit of 15728640 bytes (15 MiB)',
    );
    const zero = await reserve({ ...describeBytes(png, 'image/png'), content_length: 0 });
    expect(zero.body.error).toBe('content_length: must be at least 1');
    const hash = await reserve({ ...describeBytes(png, 'image/png'), content_sha256: 'ABC' });
    expect(hash.body.error).toBe('content_sha256: must match ^[a-f0-9]{64}$');
    expect(
      (await reserve({ ...describeBytes(mp4, 'video/mp4'), content_length: 200 * 1024 * 1024 })).status,
    ).toBe(201);
  });

  it('requires the media:write scope (403 FORBIDDEN_SCOPE)', async () => {
    const res = await reserve(describeBytes(png, 'image/png'), TEST_KEYS.aNoScope);
    expect(res).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_SCOPE' } });
  });

  it('answers 429 MEDIA_STORAGE_QUOTA_EXCEEDED past 10 pending uploads', async () => {
    for (let i = 0; i < 10; i++) {
      const bytes = Buffer.from(`pending ${i}`);
      expect((await reserve(describeBytes(bytes, 'image/jpeg'))).status).toBe(201);
    }
    const over = await reserve(describeBytes(Buffer.from('eleventh'), 'image/jpeg'));
    expect(over).toMatchObject({ status: 429, body: { code: 'MEDIA_STORAGE_QUOTA_EXCEEDED' } });
    expect((await reserve(describeBytes(Buffer.from('other owner'), 'image/jpeg'), TEST_KEYS.b)).status).toBe(
      201,
    );
  });

  it('answers 429 past 20 GiB of storage or 2,000 objects', async () => {
    const GiB = 1024 ** 3;
    await sb.control.reset(demoFixture({ storageUsedBytes: 20 * GiB - png.length }));
    expect((await reserve(describeBytes(png, 'image/png'))).status).toBe(201);
    const over = await reserve(describeBytes(Buffer.from('one byte too many'), 'image/png'));
    expect(over).toMatchObject({ status: 429, body: { code: 'MEDIA_STORAGE_QUOTA_EXCEEDED' } });
    expect(over.body.error).toMatch(/20 GiB/);
    await sb.control.reset(demoFixture({ storageUsedObjects: 1999 }));
    const r = (await reserve(describeBytes(png, 'image/png'))).body;
    await put(r, png);
    await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: r.asset_id } });
    const full = await reserve(describeBytes(mp4, 'video/mp4'));
    expect(full).toMatchObject({ status: 429, body: { code: 'MEDIA_STORAGE_QUOTA_EXCEEDED' } });
    expect(full.body.error).toMatch(/2000 objects/);
  });
});
