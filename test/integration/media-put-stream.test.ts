import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { putFile } from '../../src-main/core/media/put';

/**
 * The PUT streams from two fixed buffers, reusing each once the socket has drained it. A receiver that reads
 * slowly keeps the socket full: if a buffer were refilled while its bytes still waited to be sent, the bytes
 * that arrive would differ from the file's. The receiver hashes what it gets.
 */
let server: Server;
let url: string;
let dir: string;
let received: { sha256: string; bytes: number; length: string | undefined }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'postdesk-put-stream-'));
  server = createServer((req, res) => {
    const sha = createHash('sha256');
    let bytes = 0;
    const slow = req.url === '/slow';
    req.on('data', (c: Buffer) => {
      sha.update(c);
      bytes += c.length;
      if (slow) {
        req.pause();
        setTimeout(() => req.resume(), 2);
      }
    });
    req.on('end', () => {
      received.push({ sha256: sha.digest('hex'), bytes, length: req.headers['content-length'] });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, size: number): { path: string; sha256: string } => {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex') };
};

it('sends every byte of a many-chunk file unchanged to a slow receiver, with progress up to its size', async () => {
  received = [];
  const size = 5 * 1024 * 1024 + 12345;
  const f = file('many.bin', size);
  const progress: number[] = [];
  const res = await putFile({
    url: `${url}/slow`,
    headers: {},
    path: f.path,
    size,
    onProgress: (n) => progress.push(n),
  });
  expect(res).toEqual({ status: 200, text: 'ok' });
  expect(received).toEqual([{ sha256: f.sha256, bytes: size, length: String(size) }]);
  expect(progress.at(-1)).toBe(size);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
});

it('a capped upload sends the same bytes, at no more than the cap', async () => {
  received = [];
  const size = 3 * 1024 * 1024 + 7;
  const f = file('capped.bin', size);
  const rate = 8 * 1024 * 1024;
  const t = performance.now();
  await putFile({ url: `${url}/slow`, headers: {}, path: f.path, size, maxBytesPerSecond: rate });
  const seconds = (performance.now() - t) / 1000;
  expect(received).toEqual([{ sha256: f.sha256, bytes: size, length: String(size) }]);
  // Capped at 8 MiB/s, 3 MiB takes at least ~0.375 s (the first chunk goes at once: allow one chunk's worth).
  expect(seconds).toBeGreaterThan((size - rate / 10) / rate - 0.02);
});

it('a small cap (chunks below the reuse size) still sends the same bytes', async () => {
  received = [];
  const size = 600 * 1024 + 3;
  const f = file('small-cap.bin', size);
  await putFile({ url, headers: {}, path: f.path, size, maxBytesPerSecond: 2 * 1024 * 1024 });
  expect(received).toEqual([{ sha256: f.sha256, bytes: size, length: String(size) }]);
});
