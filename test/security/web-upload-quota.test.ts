import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FILES_PATH, FILE_NAME_HEADER } from '../../src-shared/ipc/ws-protocol';
import { createGrantRegistry, type GrantRegistry } from '../../src-main/core/bridge/grants';
import { registerUploadRoute } from '../../src-main/cli/web/upload-route';

/**
 * Issue #23, part 6: the web host's upload route kept every file a page sent, without end, and kept its bytes
 * after the grant was gone. A page holding the secret sends one file after another: the host keeps at most so
 * many files and so many bytes, and deletes a staged file when its grant goes. The real route on a real
 * Fastify server and folder (the host's gate, tested in grants-web-host, sits in front of it).
 */

let app: FastifyInstance | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  app = dir = undefined;
});

async function start(o: { maxFiles: number; maxTotalBytes: number; grants?: GrantRegistry }) {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-upload-quota-'));
  const grants = o.grants ?? createGrantRegistry();
  app = Fastify();
  await registerUploadRoute(app, {
    stagingDir: dir,
    grants,
    maxFileBytes: 512 * 1024,
    maxFiles: o.maxFiles,
    maxTotalBytes: o.maxTotalBytes,
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const send = async (bytes: number, chunked = false) => {
    const body = Buffer.alloc(bytes, 7);
    const res = await fetch(`${origin}${FILES_PATH}`, {
      method: 'POST',
      headers: { [FILE_NAME_HEADER]: 'clip.bin', 'content-type': 'application/octet-stream' },
      // A stream has no declared length: the route must stop it while it arrives.
      body: chunked ? new Blob([body]).stream() : body,
      ...(chunked ? { duplex: 'half' } : {}),
    } as RequestInit);
    const json = (await res.json()) as { ok: boolean; value?: { files: { grant: string }[] } };
    return { status: res.status, grant: json.value?.files[0]?.grant };
  };
  const staged = async () => (await readdir(dir!)).length;
  return { send, staged, grants };
}

describe('the web host keeps a bounded number of uploads', () => {
  it('refuses a file past the count, and keeps nothing of it', async () => {
    const h = await start({ maxFiles: 3, maxTotalBytes: 10 * 1024 * 1024 });
    for (let i = 0; i < 3; i++) expect((await h.send(1000)).status).toBe(200);
    expect(await h.send(1000)).toMatchObject({ status: 413, grant: undefined });
    expect(await h.staged()).toBe(3);
  });

  it('refuses bytes past the total, declared or streamed, and keeps nothing of them', async () => {
    const h = await start({ maxFiles: 100, maxTotalBytes: 1024 * 1024 });
    expect((await h.send(400 * 1024)).status).toBe(200);
    expect((await h.send(400 * 1024)).status).toBe(200);
    expect((await h.send(300 * 1024)).status).toBe(413);
    expect((await h.send(300 * 1024, true)).status).toBe(413);
    expect(await h.staged()).toBe(2);
    expect((await h.send(100 * 1024, true)).status).toBe(200); // what still fits is taken
  });

  it('deletes a staged file when its grant goes', async () => {
    // A registry that keeps two grants: the third upload pushes the first one's grant out.
    const h = await start({
      maxFiles: 10,
      maxTotalBytes: 10 * 1024 * 1024,
      grants: createGrantRegistry({ max: 2 }),
    });
    const first = await h.send(1000);
    const firstFolder = (await readdir(dir!))[0];
    await h.send(1000);
    expect(await h.staged()).toBe(2);
    expect((await h.send(1000)).status).toBe(200);
    expect(h.grants.get(first.grant!)).toBeUndefined();
    expect(await h.staged()).toBe(2);
    expect(await readdir(dir!)).not.toContain(firstFolder);
  });

  it('frees the room of a grant that went', async () => {
    const h = await start({ maxFiles: 2, maxTotalBytes: 10 * 1024 * 1024 });
    const first = await h.send(1000);
    await h.send(1000);
    expect((await h.send(1000)).status).toBe(413);
    // Its file gone from under it, the grant goes at its next use, and its room with it.
    const { path } = h.grants.get(first.grant!)!;
    await rm(path);
    await expect(h.grants.use(first.grant!)).rejects.toThrow(/no longer available/);
    for (let i = 0; i < 100 && (await h.staged()) !== 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await h.staged()).toBe(1);
    expect((await h.send(1000)).status).toBe(200);
  });
});
