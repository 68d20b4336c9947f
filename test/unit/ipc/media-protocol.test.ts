import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMediaRegistry, type MediaRegistry } from '../../../src-main/core/bridge/media-registry';
import { desktopPreviewUrl } from '../../../src-main/host/media-url';
import { electronFake } from '../../helpers/electron-fake';

// Electron's net.fetch of a file:// URL is the edge: the fake reads the file it is given, as Electron would.
vi.mock('electron', () => electronFake.module);
const fetched = electronFake.state.fetched;
const { mediaResponse, registerMediaProtocol, MEDIA_SCHEME } =
  await import('../../../src-main/app/media-protocol');

let dir: string;
let outside: string;
let registry: MediaRegistry;
let png: Buffer;

const get = (url: string, method = 'GET') => mediaResponse({ url, method, headers: new Headers() }, registry);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-media-'));
  outside = join(dir, 'outside');
  await mkdir(join(dir, 'drop', 'nested'), { recursive: true });
  await mkdir(outside);
  png = await readFile(new URL('../../../resources/icon.png', import.meta.url));
  await writeFile(join(dir, 'drop', 'a.png'), png);
  await writeFile(join(dir, 'drop', 'nested', 'b.png'), png);
  await writeFile(join(dir, 'drop', 'notes.txt'), 'not media');
  await writeFile(join(outside, 'secret.png'), png);
  await symlink(join(outside, 'secret.png'), join(dir, 'drop', 'link-out.png'));
  registry = createMediaRegistry({ previewUrl: desktopPreviewUrl });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('postdesk-media: serves only the files the user added', () => {
  it('serves a registered image by its preview id', async () => {
    const { files } = await registry.addPaths([join(dir, 'drop', 'a.png')]);
    expect(files[0]).toMatchObject({ name: 'a.png', kind: 'image', content_type: 'image/png' });
    expect(files[0]!.preview_url).toBe(`postdesk-media://file/${files[0]!.id}`);
    const res = await get(files[0]!.preview_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses unknown ids, traversal, other hosts and other methods, without touching the disk', async () => {
    const { files } = await registry.addPaths([join(dir, 'drop', 'a.png')]);
    const id = files[0]!.id;
    fetched.length = 0;
    for (const url of [
      'postdesk-media://file/00000000-0000-4000-8000-000000000000',
      'postdesk-media://file/../../etc/passwd',
      'postdesk-media://file/..%2f..%2fetc%2fpasswd',
      `postdesk-media://file/${id}/../../../etc/passwd`,
      `postdesk-media://file/${id}%2f..%2f..%2fetc%2fpasswd`,
      `postdesk-media://evil/${id}`,
      `postdesk-media://file/${encodeURIComponent(join(dir, 'drop', 'a.png'))}`,
      'postdesk-media://file/',
    ]) {
      expect({ url, status: (await get(url)).status }).toEqual({ url, status: 404 });
    }
    expect((await get(desktopPreviewUrl(id), 'POST')).status).toBe(405);
    expect(fetched).toEqual([]);
  });

  it('refuses a registered file once a symlink out has been swapped in, or once it is gone', async () => {
    const victim = join(dir, 'drop', 'swap.png');
    await copyFile(join(dir, 'drop', 'a.png'), victim);
    const { files } = await registry.addPaths([victim]);
    const url = files[0]!.preview_url!;
    expect((await get(url)).status).toBe(200);
    await unlink(victim);
    expect((await get(url)).status).toBe(404);
    await symlink(join(outside, 'secret.png'), victim);
    expect((await get(url)).status).toBe(404);
  });

  it('adds a folder’s images but not a symlink leading out of it, nor its other files', async () => {
    const { files, skipped } = await registry.addPaths([join(dir, 'drop'), 'relative/path.png']);
    const names = files.map((f) => f.name).sort();
    expect(names).toEqual(expect.arrayContaining(['a.png', 'b.png']));
    expect(names).not.toContain('link-out.png');
    expect(names).not.toContain('secret.png');
    expect(names).not.toContain('notes.txt');
    expect(skipped).toEqual([{ name: 'path.png', reason: 'not an absolute path' }]);
  });

  it('gives a non-media file no preview and serves nothing for it', async () => {
    const { files } = await registry.addPaths([join(dir, 'drop', 'notes.txt')]);
    expect(files[0]).toMatchObject({ kind: 'other', content_type: null, preview_url: null });
    expect((await get(desktopPreviewUrl(files[0]!.id))).status).toBe(404);
  });

  it('is registered on the session protocol under its scheme', () => {
    const handle = vi.fn();
    registerMediaProtocol({ handle }, registry);
    expect(handle).toHaveBeenCalledWith(MEDIA_SCHEME, expect.any(Function));
    expect(MEDIA_SCHEME).toBe('postdesk-media');
  });
});
