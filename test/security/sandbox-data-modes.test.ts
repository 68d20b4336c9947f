/**
 * `sandbox --data DIR` keeps the sandbox's database (which holds the upload-signing secret) and the uploaded
 * objects: other users of the machine must read none of it, whatever the umask. Real sandbox, real SQLite
 * file with its WAL and SHM, real uploaded bytes, real stat modes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import { demoFixture } from '../helpers/sandbox';

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(3, '0');

/** Every folder and file under `dir`, with its mode. */
function modes(dir: string, out: Record<string, string> = {}, at = ''): Record<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${at}${e.name}`;
    out[e.isDirectory() ? `${rel}/` : rel] = modeOf(join(dir, e.name));
    if (e.isDirectory()) modes(join(dir, e.name), out, `${rel}/`);
  }
  return out;
}

let root: string;
const savedUmask = process.umask();
beforeAll(() => {
  process.umask(0o022);
  root = mkdtempSync(join(tmpdir(), 'pd-sandbox-data-'));
});
afterAll(() => {
  process.umask(savedUmask);
  rmSync(root, { recursive: true, force: true });
});

it('sandbox --data: the folder 0700, the database, its WAL and SHM, and every stored object 0600', async () => {
  const dataDir = join(root, 'data');
  const fixture = demoFixture();
  const sb = await startSandbox({ port: 0, dataDir, fixture, quiet: true });
  try {
    const key = fixture.owners?.[0]?.api_keys?.[0]?.key ?? '';
    const bytes = Buffer.from('a stored object: an uploaded picture');
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${sb.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const reserved = await api('POST', '/api/cli/media/uploads', {
      asset_id: randomUUID(),
      content_type: 'image/jpeg',
      content_length: bytes.length,
      content_sha256: createHash('sha256').update(bytes).digest('hex'),
      content_md5: createHash('md5').update(bytes).digest('hex'),
    });
    expect(reserved.status).toBe(201);
    const r = (await reserved.json()) as { upload_url: string; upload_headers: Record<string, string> };
    expect(
      (await fetch(r.upload_url, { method: 'PUT', headers: r.upload_headers, body: bytes })).status,
    ).toBe(200);

    const seen = modes(dataDir);
    // The attack's condition: the database, its WAL and SHM, and an object are all there.
    expect(Object.keys(seen)).toEqual(
      expect.arrayContaining(['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm']),
    );
    const objects = Object.keys(seen).filter((p) => p.startsWith('objects/') && !p.endsWith('/'));
    expect(objects.length).toBeGreaterThan(0);
    expect(modeOf(dataDir)).toBe('700');
    expect(seen).toEqual(
      Object.fromEntries(Object.keys(seen).map((p) => [p, p.endsWith('/') ? '700' : '600'])),
    );
  } finally {
    await sb.close();
  }
});
