import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DOWNLOADS_PATH } from '../../src-shared/ipc/ws-protocol';
import { ensurePrivateDir, removePath } from '../core/files';
import type { Download, DownloadShelf } from '../core/bridge/host-ports';

/** A download id: 128 random bits, URL-safe. */
const ID = /^[A-Za-z0-9_-]{22}$/;
export const isDownloadId = (id: string): boolean => ID.test(id);

export function createDownloadShelf(o: {
  readonly dir: string;
  readonly url: (path: string) => string;
}): DownloadShelf {
  const ready = new Map<string, Download>();
  return {
    async reserve(name) {
      const id = randomBytes(16).toString('base64url');
      const folder = join(o.dir, id);
      await ensurePrivateDir(folder);
      const d = { file: join(folder, 'export'), name };
      ready.set(id, d);
      return { ...d, id, url: o.url(`${DOWNLOADS_PATH}${id}`) };
    },
    take(id) {
      const d = ready.get(id);
      ready.delete(id);
      return d;
    },
    async discard(id) {
      ready.delete(id);
      await removePath(join(o.dir, id), { recursive: true });
    },
  };
}
