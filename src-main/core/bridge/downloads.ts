import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DOWNLOADS_PATH } from '../../../src-shared/ipc/ws-protocol';
import { ensurePrivateDir, removePath } from '../files';

/** A file waiting for the browser to fetch it once. */
export interface Download {
  readonly file: string;
  /** The name the browser saves it under. */
  readonly name: string;
}

/**
 * `postdesk web`'s exports: written privately under the host's staging folder, then fetched once by the page
 * from `/bridge/downloads/<id>` (the host's guard checks the launch secret). A browser picks where a download
 * goes, so the page never names a path here either; the id is random and good for one fetch.
 */
export interface DownloadShelf {
  /** A new private place for a file called `name`; `url` is what the page fetches it from once it is written. */
  reserve(name: string): Promise<Download & { readonly id: string; readonly url: string }>;
  /** Hands a ready download over once (then forgets it); undefined for an id never given or already taken. */
  take(id: string): Download | undefined;
  /** Removes a reserved file that will not be offered (the export failed). */
  discard(id: string): Promise<void>;
}

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
