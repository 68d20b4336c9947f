import { create } from 'zustand';
import type {
  BridgeError,
  BridgeResult,
  ConvertProgress,
  HashProgress,
  LibraryItem,
  MediaAddResult,
  MediaFile,
  MediaInspection,
  MediaUploaded,
  SkippedFile,
  UploadProgress,
} from '../../../src-shared/ipc';
import { describeError } from '../app/describe-error';
import { bridge, settle } from './bridge';

export type MediaPhase =
  'checking' | 'rejected' | 'converting' | 'hashing' | 'uploading' | 'uploaded' | 'failed';

/** One file in the composer, from drop to managed upload. */
export interface MediaItem {
  readonly file: MediaFile;
  /** Shown when the host offers no preview URL (an object URL of the dropped file). */
  readonly localPreview: string | null;
  readonly phase: MediaPhase;
  readonly inspection: MediaInspection | null;
  readonly hash: HashProgress | null;
  readonly upload: UploadProgress | null;
  /** While `converting`: how far main's conversion to MP4 has come. */
  readonly convert: ConvertProgress | null;
  readonly uploaded: MediaUploaded | null;
  readonly error: Readonly<BridgeError> | null;
}

/** A file just added to the post, to be checked first (`checking`), with no progress of any step yet. */
const newItem = (file: MediaFile, localPreview: string | null = null): MediaItem => ({
  file,
  localPreview,
  phase: 'checking',
  inspection: null,
  hash: null,
  upload: null,
  convert: null,
  uploaded: null,
  error: null,
});

interface MediaState {
  readonly items: readonly MediaItem[];
  readonly skipped: readonly SkippedFile[];
  readonly adding: boolean;
  /** Registers dropped files, checks each, and uploads the ones that pass. */
  addDropped(files: readonly File[]): Promise<void>;
  /** The same for files (or a folder) chosen in the host's own dialog, where it has one (`file_dialog`). */
  pick(folder: boolean): Promise<void>;
  retry(id: string): Promise<void>;
  /**
   * Has main convert a file the service does not take as it is (a WebM, an MP4 too large) to one it does;
   * the converted copy takes the original's place in the post, then is checked and uploaded.
   */
  convert(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Puts files this connection already uploaded into the post, as uploaded: no check, no hash, no upload.
   * With `replace`, they become the post's whole media (a restored draft).
   */
  attach(items: readonly LibraryItem[], replace?: boolean): void;
  clear(): void;
  dismissSkipped(): void;
  listen(): () => void;
}

export const useMediaStore = create<MediaState>()((set, get) => {
  const patch = (id: string, change: Partial<MediaItem>) =>
    set({ items: get().items.map((it) => (it.file.id === id ? { ...it, ...change } : it)) });
  const has = (id: string) => get().items.some((it) => it.file.id === id);

  const process = async (id: string) => {
    patch(id, { phase: 'checking', error: null });
    const inspected = await settle(() => bridge().media.inspect({ id }));
    if (!has(id)) return;
    if (!inspected.ok) return patch(id, { phase: 'failed', error: inspected.error });
    if (!inspected.value.ok) return patch(id, { phase: 'rejected', inspection: inspected.value });
    patch(id, { inspection: inspected.value, phase: 'hashing' });
    const uploaded = await settle(() => bridge().media.upload({ id }));
    if (!has(id)) return;
    if (!uploaded.ok) return patch(id, { phase: 'failed', error: uploaded.error });
    patch(id, { phase: 'uploaded', uploaded: uploaded.value });
  };

  /** Shows what was added (then checks and uploads it) and what was skipped, or why nothing was. */
  const accept = async (r: BridgeResult<MediaAddResult>, sources: readonly File[]) => {
    if (!r.ok) {
      const names = sources.length ? sources.map((f) => f.name) : ['Your files'];
      const reason = describeError(r.error);
      set({ skipped: [...get().skipped, ...names.map((name) => ({ name, reason }))] });
      return;
    }
    const fresh = r.value.files.filter((f) => !has(f.id));
    const items: MediaItem[] = fresh.map((file) => {
      const source = sources.find((f) => f.name === file.name && f.size === file.size);
      const previewable = file.kind === 'image' || file.kind === 'video';
      return newItem(file, !file.preview_url && source && previewable ? URL.createObjectURL(source) : null);
    });
    set({ items: [...get().items, ...items], skipped: [...get().skipped, ...r.value.skipped] });
    await Promise.all(items.map((it) => process(it.file.id)));
  };

  return {
    items: [],
    skipped: [],
    adding: false,
    async addDropped(files) {
      if (files.length === 0) return;
      set({ adding: true });
      const r = await settle(() => bridge().media.addDropped(files));
      set({ adding: false });
      await accept(r, files);
    },
    async pick(folder) {
      const picked = await settle(() => bridge().files.pick({ purpose: 'media', folder }));
      if (!picked.ok) return accept(picked, []);
      const { skipped } = picked.value;
      if (picked.value.files.length === 0) return accept({ ok: true, value: { files: [], skipped } }, []);
      set({ adding: true });
      const grants = picked.value.files.map((f) => f.grant);
      const r = await settle(() => bridge().media.add({ grants }));
      set({ adding: false });
      await accept(
        r.ok ? { ok: true, value: { ...r.value, skipped: [...skipped, ...r.value.skipped] } } : r,
        [],
      );
    },
    async retry(id) {
      await process(id);
    },
    async convert(id) {
      const item = get().items.find((it) => it.file.id === id);
      if (!item || item.phase === 'converting') return;
      patch(id, { phase: 'converting', convert: { id, percent: null }, error: null });
      const r = await settle(() => bridge().media.convert({ id }));
      if (!has(id)) return;
      if (!r.ok) return patch(id, { phase: 'rejected', convert: null, error: r.error });
      const converted = newItem(r.value);
      // The copy takes the original's place; the original stays on disk, untouched, and leaves the post.
      set({ items: get().items.map((it) => (it.file.id === id ? converted : it)) });
      if (item.localPreview) URL.revokeObjectURL(item.localPreview);
      void settle(() => bridge().media.remove({ id }));
      await process(r.value.id);
    },
    async remove(id) {
      const item = get().items.find((it) => it.file.id === id);
      if (item?.localPreview) URL.revokeObjectURL(item.localPreview);
      set({ items: get().items.filter((it) => it.file.id !== id) });
      await settle(() => bridge().media.remove({ id }));
    },
    attach(library, replace = false) {
      const kept = replace ? [] : get().items;
      if (replace) for (const it of get().items) if (it.localPreview) URL.revokeObjectURL(it.localPreview);
      const taken = new Set(kept.map((it) => it.uploaded?.asset_id ?? it.file.id));
      const added: MediaItem[] = library
        .filter((l) => !taken.has(l.asset_id) && !taken.has(l.file.id))
        .map((l) => ({
          ...newItem(l.file),
          phase: 'uploaded',
          uploaded: { id: l.file.id, asset_id: l.asset_id, public_url: l.public_url, already_uploaded: true },
        }));
      set({ items: [...kept, ...added], ...(replace ? { skipped: [] } : {}) });
    },
    clear() {
      for (const it of get().items) if (it.localPreview) URL.revokeObjectURL(it.localPreview);
      set({ items: [], skipped: [] });
    },
    dismissSkipped() {
      set({ skipped: [] });
    },
    listen() {
      const b = bridge();
      const offHash = b.media.onDidHashProgress((p) => {
        if (has(p.id)) patch(p.id, { hash: p });
      });
      const offUpload = b.media.onDidUploadProgress((p) => {
        const current = get().items.find((it) => it.file.id === p.id);
        if (!current) return;
        // Progress may trail the upload's answer: never move a finished item back to "uploading".
        const moving = current.phase === 'hashing' || current.phase === 'uploading';
        const live = p.phase !== 'done' && p.phase !== 'failed';
        patch(p.id, moving && live ? { upload: p, phase: 'uploading' } : { upload: p });
      });
      const offConvert = b.media.onDidConvertProgress((p) => {
        const current = get().items.find((it) => it.file.id === p.id);
        if (current?.phase === 'converting') patch(p.id, { convert: p });
      });
      return () => {
        offHash();
        offUpload();
        offConvert();
      };
    },
  };
});
