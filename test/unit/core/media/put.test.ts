import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../../../../src-main/core/media/put';

interface Received {
  readonly contentLength: string | undefined;
  readonly bytes: number;
}

let server: Server;
let origin: string;
let dir: string;
const received: Received[] = [];

const drain = async (req: IncomingMessage): Promise<number> => {
  let n = 0;
  for await (const chunk of req) n += (chunk as Buffer).length;
  return n;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'postdesk-put-'));
  server = createServer((req, res) => {
    if (req.method === 'GET') {
      // Holds the only connection, so a PUT behind it waits in undici's queue.
      setTimeout(() => res.end('slow'), 150);
      return;
    }
    void drain(req).then((bytes) => {
      received.push({ contentLength: req.headers['content-length'], bytes });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('putFile', () => {
  it.each([
    ['uncapped', undefined],
    ['capped', 1024 * 1024],
  ])('sends every byte when the request waits for a connection (%s)', async (_name, maxBytesPerSecond) => {
    received.length = 0;
    const file = join(dir, 'small.png');
    writeFileSync(file, Buffer.alloc(70, 7));
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    try {
      const busy = request(`${origin}/slow`, { dispatcher: pool }).then((r) => r.body.text());
      let progress = 0;
      const res = await putFile({
        url: `${origin}/put`,
        headers: { 'content-type': 'image/png' },
        path: file,
        size: 70,
        dispatcher: pool,
        maxBytesPerSecond,
        onProgress: (sent) => (progress = sent),
      });
      await busy;
      expect(res.status).toBe(200);
      // Before the fix the file stream flowed (and ended) while queued, and undici sent content-length: 0.
      expect(received).toEqual([{ contentLength: '70', bytes: 70 }]);
      expect(progress).toBe(70);
    } finally {
      await pool.close();
    }
  });

  it('refuses an empty file with a clear message instead of sending nothing', async () => {
    const file = join(dir, 'empty.png');
    writeFileSync(file, '');
    await expect(putFile({ url: `${origin}/put`, headers: {}, path: file, size: 0 })).rejects.toThrow(
      /empty/,
    );
  });
});
