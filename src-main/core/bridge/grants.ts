import { randomUUID } from 'node:crypto';
import { basename, isAbsolute } from 'node:path';
import type { GrantedFile, GrantedFiles, SkippedFile } from '../../../src-shared/ipc/files';
import { BridgeFault } from './bridge-fault';
import { realPath, statPath } from '../files';

/**
 * Where a grant came from. Main's dialog and a drop are files the user chose on this computer; an upload
 * is bytes a page sent, so it may not name other files (a CSV's media paths, say).
 */
export type GrantSource = 'dialog' | 'drop' | 'upload';

/** A file or folder the user chose, as main knows it. The page only ever sees its id, name and size. */
export interface Grant {
  readonly id: string;
  /** The canonical path when it was granted; every use checks it still is. */
  readonly path: string;
  readonly name: string;
  readonly size: number;
  readonly folder: boolean;
  readonly source: GrantSource;
}

export interface GrantItem {
  readonly path: string;
  /** The name the user saw (a dropped file's own name); default: the path's last part. */
  readonly name?: string;
}

/**
 * Main's record of what the user chose. Only main mints (its dialog, the preload's drop channel, the web
 * host's upload route); the bridge's channels take grant ids and resolve them here, so a page can name a
 * file only by an id main gave it.
 */
export interface GrantRegistry {
  mint(items: readonly GrantItem[], source: GrantSource): Promise<GrantedFiles>;
  /** The grant of this id, or undefined. */
  get(id: string): Grant | undefined;
  /** The grant, checked again on disk (still there, still the same file); a not_found fault otherwise. */
  use(id: string): Promise<Grant>;
  /**
   * Called with each grant that goes (the oldest, past the limit, or one whose file went), so what was kept for
   * it can go too (the web host's staged uploads). Returns the unsubscribe.
   */
  onDidForget(listener: (grant: Grant) => void): () => void;
}

const GONE = 'That file is no longer available to Postdesk; choose it again.';

export function createGrantRegistry(o: { readonly max?: number } = {}): GrantRegistry {
  const max = o.max ?? 5000;
  const byId = new Map<string, Grant>();
  const forgotten = new Set<(grant: Grant) => void>();
  const forget = (id: string): void => {
    const g = byId.get(id);
    if (!g) return;
    byId.delete(id);
    for (const l of [...forgotten]) l(g);
  };

  const view = (g: Grant): GrantedFile => ({ grant: g.id, name: g.name, size: g.size, folder: g.folder });

  async function one(item: GrantItem, source: GrantSource): Promise<Grant | SkippedFile> {
    const name = (item.name ?? '').trim() || basename(item.path) || 'file';
    if (!isAbsolute(item.path)) return { name, reason: 'not a file on this computer' };
    let real: string;
    let st;
    try {
      real = await realPath(item.path);
      st = await statPath(real);
    } catch {
      return { name, reason: 'not found or not readable' };
    }
    if (!st.isFile() && !st.isDirectory()) return { name, reason: 'not a file or a folder' };
    const grant: Grant = {
      id: randomUUID(),
      path: real,
      name,
      size: st.isFile() ? st.size : 0,
      folder: st.isDirectory(),
      source,
    };
    byId.set(grant.id, grant);
    // The oldest grants go first: a page cannot grow main's memory without end.
    for (const oldest of byId.keys()) {
      if (byId.size <= max) break;
      forget(oldest);
    }
    return grant;
  }

  return {
    async mint(items, source) {
      const out: GrantedFiles = { files: [], skipped: [] };
      for (const item of items) {
        const r = await one(item, source);
        if ('id' in r) out.files.push(view(r));
        else out.skipped.push(r);
      }
      return out;
    },
    get: (id) => byId.get(id),
    async use(id) {
      const g = byId.get(id);
      if (!g) throw new BridgeFault('not_found', GONE);
      try {
        const real = await realPath(g.path);
        const st = await statPath(real);
        if (real === g.path && st.isDirectory() === g.folder) return g;
      } catch {
        // gone: said below
      }
      forget(id);
      throw new BridgeFault('not_found', GONE);
    },
    onDidForget(listener) {
      forgotten.add(listener);
      return () => void forgotten.delete(listener);
    },
  };
}
