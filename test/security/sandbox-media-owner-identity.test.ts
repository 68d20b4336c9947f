import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * An `asset_id` is the caller's own idempotency key, scoped to its owner. Another owner's asset must
 * answer exactly as an absent one: reserving the same id must not reveal that it exists (no 409), must
 * give the caller a fresh asset of its own, and must leave the first owner's asset untouched.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const bytesA = Buffer.from('owner a picture bytes');
const bytesB = Buffer.from('owner b, other picture, other length');

const describeBytes = (bytes: Buffer, asset_id: string) => ({
  asset_id,
  content_type: 'image/jpeg',
  content_length: bytes.length,
  content_sha256: createHash('sha256').update(bytes).digest('hex'),
  content_md5: createHash('md5').update(bytes).digest('hex'),
});
const reserve = (bytes: Buffer, assetId: string, key: string) =>
  sb.api('POST', '/api/cli/media/uploads', { key, body: describeBytes(bytes, assetId) });
const complete = (assetId: string, key: string) =>
  sb.api('PATCH', '/api/cli/media/uploads', { key, body: { asset_id: assetId } });
const put = (r: { upload_url: string; upload_headers: Record<string, string> }, bytes: Buffer) =>
  fetch(r.upload_url, { method: 'PUT', headers: r.upload_headers, body: bytes });
const served = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

async function upload(bytes: Buffer, assetId: string, key: string) {
  const r = await reserve(bytes, assetId, key);
  expect(r.status, r.text).toBe(201);
  expect(r.body).toMatchObject({ asset_id: assetId, already_uploaded: false });
  expect((await put(r.body, bytes)).status).toBe(200);
  const done = await complete(assetId, key);
  expect(done.status, done.text).toBe(200);
  return { reservation: r.body, asset: done.body };
}

describe('asset_id is per owner', () => {
  it('another owner’s completed asset_id reserves as a fresh asset, and both owners keep their own bytes', async () => {
    const id = randomUUID();
    const a = await upload(bytesA, id, TEST_KEYS.a);

    const b = await upload(bytesB, id, TEST_KEYS.b);
    expect(b.asset).toMatchObject({ id, bytes: bytesB.length });
    expect(b.asset.public_url).not.toBe(a.asset.public_url);
    expect(b.reservation.upload_url).not.toBe(a.reservation.upload_url);
    expect((await served(b.asset.public_url)).equals(bytesB)).toBe(true);

    // Owner a's asset is untouched: same record, same bytes.
    expect((await complete(id, TEST_KEYS.a)).body).toEqual(a.asset);
    expect((await served(a.asset.public_url)).equals(bytesA)).toBe(true);
    expect(await sb.control.state()).toMatchObject({ media: { pending: 0, uploaded: 2 } });

    // Each owner's post resolves the id to its own asset.
    const postWith = async (key: string, account: string, platform: string) =>
      sb.api('POST', '/api/cli/posts', {
        key,
        body: {
          caption: 'c',
          action: 'draft',
          media: [{ asset_id: id }],
          targets: [{ social_account_id: account, platform }],
        },
      });
    const postA = await postWith(TEST_KEYS.a, IDS.accounts.x, 'x');
    const postB = await postWith(TEST_KEYS.b, IDS.accountB, 'x');
    expect(postA.body.social_posts[0].media[0].url).toBe(a.asset.public_url);
    expect(postB.body.social_posts[0].media[0].url).toBe(b.asset.public_url);
  });

  it('the same content under another owner’s asset_id is not “already uploaded” for the newcomer', async () => {
    const id = randomUUID();
    const a = await upload(bytesA, id, TEST_KEYS.a);
    const b = await reserve(bytesA, id, TEST_KEYS.b);
    expect(b.status, b.text).toBe(201);
    expect(b.body).toMatchObject({ asset_id: id, already_uploaded: false, media: null });
    expect(b.body.upload_url).toEqual(expect.any(String));
    // Completing before the bytes arrive answers as for any fresh asset of b's own.
    expect((await complete(id, TEST_KEYS.b)).body.code).toBe('MEDIA_UPLOAD_CONFLICT');
    expect((await complete(id, TEST_KEYS.a)).body).toEqual(a.asset);
  });

  it('a pending reservation of another owner does not block or disturb the newcomer', async () => {
    const id = randomUUID();
    const ra = await reserve(bytesA, id, TEST_KEYS.a);
    expect(ra.status).toBe(201);
    const b = await upload(bytesB, id, TEST_KEYS.b);
    expect((await served(b.asset.public_url)).equals(bytesB)).toBe(true);
    // Owner a's address still takes a's bytes, and a's asset completes with them.
    expect((await put(ra.body, bytesA)).status).toBe(200);
    const doneA = await complete(id, TEST_KEYS.a);
    expect(doneA.body).toMatchObject({ id, bytes: bytesA.length });
    expect((await served(doneA.body.public_url)).equals(bytesA)).toBe(true);
    expect((await served(b.asset.public_url)).equals(bytesB)).toBe(true);
  });

  it('the owner’s own asset_id with other content still answers 409', async () => {
    const id = randomUUID();
    await upload(bytesA, id, TEST_KEYS.a);
    const again = await reserve(bytesB, id, TEST_KEYS.a);
    expect(again).toMatchObject({ status: 409, body: { code: 'MEDIA_UPLOAD_CONFLICT' } });
  });
});

/** media_assets as stores written before per-owner asset ids held it: keyed by id, objects named by id. */
const TABLE_BEFORE_OBJECT_KEYS = `
CREATE TABLE media_assets (
  id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, run_id TEXT, content_type TEXT NOT NULL,
  content_length INTEGER NOT NULL, sha256 TEXT NOT NULL, md5 TEXT NOT NULL, status TEXT NOT NULL,
  bytes_received INTEGER NOT NULL DEFAULT 0, upload_expires_at TEXT NOT NULL, metadata TEXT,
  created_at TEXT NOT NULL, completed_at TEXT);
CREATE INDEX media_owner_sha ON media_assets (owner_id, sha256, status);
CREATE INDEX media_owner_status ON media_assets (owner_id, status);`;

describe('a --data store from before per-owner asset ids', () => {
  it('keeps its assets, their files and their public URLs, and then takes per-owner ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-media-store-'));
    try {
      const id = randomUUID();
      const first = await startSandbox({ port: 0, dataDir: dir, fixture: demoFixture(), quiet: true });
      const api = (method: string, path: string, key: string, body: unknown) =>
        fetch(`${first.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const r = (await (
        await api('POST', '/api/cli/media/uploads', TEST_KEYS.a, describeBytes(bytesA, id))
      ).json()) as {
        upload_url: string;
        upload_headers: Record<string, string>;
      };
      expect((await put(r, bytesA)).status).toBe(200);
      expect((await api('PATCH', '/api/cli/media/uploads', TEST_KEYS.a, { asset_id: id })).status).toBe(200);
      await first.close();

      // Turn the store back into the old layout: the row keyed by id, the object file named by id.
      const db = new Database(join(dir, 'sandbox.db'));
      const { object_key } = db.prepare('SELECT object_key FROM media_assets WHERE id = ?').get(id) as {
        object_key: string;
      };
      db.exec(`ALTER TABLE media_assets RENAME TO current_layout;
        DROP INDEX media_owner_sha; DROP INDEX media_owner_status;
        ${TABLE_BEFORE_OBJECT_KEYS}
        INSERT INTO media_assets SELECT id, owner_id, run_id, content_type, content_length, sha256, md5, status,
          bytes_received, upload_expires_at, metadata, created_at, completed_at FROM current_layout;
        DROP TABLE current_layout;`);
      // Builds of that time kept no schema version.
      db.pragma('user_version = 0');
      db.close();
      renameSync(join(dir, 'objects', object_key), join(dir, 'objects', id));

      const second = await startSandbox({ port: 0, dataDir: dir, quiet: true });
      try {
        const done = await fetch(`${second.url}/api/cli/media/uploads`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' },
          body: JSON.stringify({ asset_id: id }),
        });
        const asset = (await done.json()) as { public_url: string };
        expect(asset.public_url).toBe(`${second.url}/media/${id}.jpg`);
        expect((await served(asset.public_url)).equals(bytesA)).toBe(true);
        const b = await fetch(`${second.url}/api/cli/media/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEYS.b}`, 'content-type': 'application/json' },
          body: JSON.stringify(describeBytes(bytesB, id)),
        });
        expect(b.status).toBe(201);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
