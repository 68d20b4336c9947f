import { randomUUID } from 'node:crypto';
import { basename, isAbsolute, join } from 'node:path';
import type { MediaAddResult, MediaFile, MediaKind } from '../../../src-shared/ipc/media';
import type { SkippedFile } from '../../../src-shared/ipc/files';
import type { UploadContentType } from '../../../src-shared/api/media';
import { detectFile, type MediaFormat } from '../media/detect';
import { isWithin, lstatPath, readDirEntries, realPath, statPath } from '../files';

/** A file the user added: the only files a preview URL or an upload may read. */
export interface RegisteredFile {
  readonly id: string;
  readonly name: string;
  /** The canonical path when it was added; serving re-checks it so a swapped symlink cannot redirect. */
  readonly realPath: string;
  readonly size: number;
  readonly format: MediaFormat;
  readonly contentType: UploadContentType | null;
  readonly kind: MediaKind;
}

export interface ServableFile {
  readonly path: string;
  readonly mime: string;
  readonly size: number;
}

export interface MediaRegistry {
  /**
   * Registers granted files and the media files of granted folders (two levels deep, symlinks leaving the
   * folder skipped), each under the name the user saw. Main only: the page's `media:add` takes grants.
   */
  addFiles(items: readonly { readonly path: string; readonly name: string }[]): Promise<MediaAddResult>;
  /** `addFiles` named by the paths' last parts. */
  addPaths(paths: readonly string[]): Promise<MediaAddResult>;
  get(id: string): RegisteredFile | undefined;
  remove(id: string): boolean;
  /** The file to serve for a preview id, or null: unknown id, gone, no longer the same file, not previewable. */
  resolveForServing(id: string): Promise<ServableFile | null>;
  toMediaFile(file: RegisteredFile): MediaFile;
}

export interface MediaRegistryOptions {
  /** The preview address of an id in this host (`postdesk-media://file/<id>`, `/media/<id>?token=`). */
  readonly previewUrl: (id: string) => string;
  readonly maxFiles?: number;
}

const PREVIEW_MIME: Partial<Record<MediaFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
};
const IMAGE_FORMATS: ReadonlySet<MediaFormat> = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);
const VIDEO_FORMATS: ReadonlySet<MediaFormat> = new Set(['mp4', 'mov', 'm4v', 'webm', 'mkv', '3gp']);
const FOLDER_DEPTH = 2;
const FOLDER_FILES = 500;

/** Preview ids are random UUIDs: a URL can name one, never a path. */
export const PREVIEW_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const kindOf = (f: MediaFormat): MediaKind =>
  IMAGE_FORMATS.has(f) ? 'image' : VIDEO_FORMATS.has(f) ? 'video' : 'other';

/**
 * The files under a dropped folder, `FOLDER_DEPTH` levels and `FOLDER_FILES` files at most, by name, hidden ones
 * left out, and a link out of the folder not followed.
 */
async function walk(root: string, dir: string, depth: number, out: string[]): Promise<void> {
  if (depth > FOLDER_DEPTH || out.length >= FOLDER_FILES) return;
  const entries = await readDirEntries(dir);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (out.length >= FOLDER_FILES) return;
    if (e.name.startsWith('.')) continue;
    const full = join(dir, e.name);
    let real: string;
    try {
      real = await realPath(full);
    } catch {
      continue;
    }
    if (!isWithin(root, real)) continue; // a symlink out of the dropped folder was not dropped
    const st = await statPath(real);
    if (st.isDirectory()) await walk(root, real, depth + 1, out);
    else if (st.isFile()) out.push(real);
  }
}

export function createMediaRegistry(options: MediaRegistryOptions): MediaRegistry {
  const byId = new Map<string, RegisteredFile>();
  const byPath = new Map<string, string>();
  const maxFiles = options.maxFiles ?? 2000;

  const toMediaFile = (f: RegisteredFile): MediaFile => ({
    id: f.id,
    name: f.name,
    size: f.size,
    content_type: f.contentType,
    kind: f.kind,
    preview_url: PREVIEW_MIME[f.format] ? options.previewUrl(f.id) : null,
  });

  async function registerFile(realPath: string, name: string): Promise<RegisteredFile | string> {
    const existing = byPath.get(realPath);
    if (existing) {
      const f = byId.get(existing);
      if (f) return f;
    }
    if (byId.size >= maxFiles) return `more than ${maxFiles} files added; remove some first`;
    const st = await statPath(realPath);
    if (!st.isFile()) return 'not a regular file';
    const detected = await detectFile(realPath);
    const file: RegisteredFile = {
      id: randomUUID(),
      name,
      realPath,
      size: st.size,
      format: detected.format,
      contentType: detected.mime,
      kind: kindOf(detected.format),
    };
    byId.set(file.id, file);
    byPath.set(realPath, file.id);
    return file;
  }

  const remove = (id: string): boolean => {
    const f = byId.get(id);
    if (!f) return false;
    byId.delete(id);
    byPath.delete(f.realPath);
    return true;
  };

  async function addFiles(items: readonly { readonly path: string; readonly name: string }[]) {
    const files: MediaFile[] = [];
    const skipped: SkippedFile[] = [];
    const seen = new Set<string>();
    const push = (f: RegisteredFile) => {
      if (seen.has(f.id)) return;
      seen.add(f.id);
      files.push(toMediaFile(f));
    };
    for (const { path: p, name } of items) {
      if (!isAbsolute(p)) {
        skipped.push({ name, reason: 'not an absolute path' });
        continue;
      }
      let real: string;
      try {
        await lstatPath(p);
        real = await realPath(p);
      } catch {
        skipped.push({ name, reason: 'not found or not readable' });
        continue;
      }
      const st = await statPath(real);
      if (st.isDirectory()) {
        const found: string[] = [];
        await walk(real, real, 0, found);
        let media = 0;
        for (const f of found) {
          const r = await registerFile(f, basename(f)).catch(() => 'not readable');
          if (typeof r === 'string') continue;
          if (r.kind === 'other') {
            // a folder's stray files were not chosen one by one: forget them quietly
            if (!files.some((x) => x.id === r.id)) remove(r.id);
            continue;
          }
          media++;
          push(r);
        }
        if (media === 0) skipped.push({ name, reason: 'the folder holds no images or videos' });
        continue;
      }
      const r = await registerFile(real, name).catch(() => 'not readable');
      if (typeof r === 'string') skipped.push({ name, reason: r });
      else push(r);
    }
    return { files, skipped };
  }

  return {
    toMediaFile,
    get: (id) => byId.get(id),
    remove,
    addFiles,
    addPaths: (paths) => addFiles(paths.map((p) => ({ path: p, name: basename(p) || p }))),
    async resolveForServing(id) {
      if (!PREVIEW_ID.test(id)) return null;
      const f = byId.get(id);
      if (!f) return null;
      const mime = PREVIEW_MIME[f.format];
      if (!mime) return null;
      try {
        const real = await realPath(f.realPath);
        if (real !== f.realPath) return null;
        const st = await lstatPath(real);
        if (!st.isFile()) return null;
        return { path: real, mime, size: st.size };
      } catch {
        return null;
      }
    },
  };
}
