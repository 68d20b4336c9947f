import type { UploadContentType } from '../../../src-shared/api/media';
import { openMediaStore } from '../media/media-store';
import type { Store } from '../store/store';

/** One asset this connection's uploads completed, as the uploader recorded it (`media_uploads`). */
export interface LibraryRecord {
  readonly assetId: string;
  readonly publicUrl: string;
  /** Where the bytes were read from; main's own record, never a page's. */
  readonly path: string;
  readonly size: number;
  /** The file's modification time when it was uploaded: a file changed since is not the asset. */
  readonly mtimeMs: number;
  readonly contentType: UploadContentType;
  readonly uploadedAt: string;
}

export interface MediaLibrary {
  /** Completed uploads of this scope made by the person (not by an agent's run), newest first (one record per asset: the table is unique on scope and asset). */
  list(scope: string, limit?: number): LibraryRecord[];
  /** The records of these asset ids in this scope, in the given order; unknown ids are left out. */
  find(scope: string, assetIds: readonly string[]): LibraryRecord[];
}

interface Row {
  asset_id: string;
  public_url: string;
  path: string;
  size: number;
  mtime_ms: number;
  content_type: UploadContentType;
  updated_at: string;
}

const toRecord = (r: Row): LibraryRecord => ({
  assetId: r.asset_id,
  publicUrl: r.public_url,
  path: r.path,
  size: r.size,
  mtimeMs: r.mtime_ms,
  contentType: r.content_type,
  uploadedAt: r.updated_at,
});

/** Reads the uploader's own cache (`src-main/core/media/media-store.ts`); it never writes there. */
export function openMediaLibrary(store: Store): MediaLibrary {
  openMediaStore(store); // its migrations, so the table exists on a fresh store
  const listStmt = store.db.prepare<[string, number], Row>(
    `SELECT asset_id, public_url, path, size, mtime_ms, content_type, updated_at FROM media_uploads
     WHERE scope = ? AND state = 'completed' AND run_id IS NULL AND public_url IS NOT NULL
     ORDER BY id DESC LIMIT ?`,
  );
  const oneStmt = store.db.prepare<[string, string], Row>(
    `SELECT asset_id, public_url, path, size, mtime_ms, content_type, updated_at FROM media_uploads
     WHERE scope = ? AND asset_id = ? AND state = 'completed' AND public_url IS NOT NULL
     ORDER BY id DESC LIMIT 1`,
  );
  return {
    list: (scope, limit = 60) => listStmt.all(scope, limit).map(toRecord),
    find: (scope, assetIds) =>
      assetIds.flatMap((id) => {
        const r = oneStmt.get(scope, id);
        return r ? [toRecord(r)] : [];
      }),
  };
}
