import type { Db, Migration, Store } from '../store/store';
import type { UploadContentType } from '../../../src-shared/api/media';
import type { Digests } from './hash';

/** The media namespace of the local store: the hash cache and the state of every upload. */
const MEDIA_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE media_hash_cache (
           path TEXT PRIMARY KEY,
           size INTEGER NOT NULL,
           mtime_ms REAL NOT NULL,
           sha256 TEXT NOT NULL,
           md5 TEXT NOT NULL,
           hashed_at TEXT NOT NULL
         );
         CREATE TABLE media_uploads (
           id INTEGER PRIMARY KEY,
           scope TEXT NOT NULL,
           run_id TEXT,
           asset_id TEXT NOT NULL,
           path TEXT NOT NULL,
           size INTEGER NOT NULL,
           mtime_ms REAL NOT NULL,
           sha256 TEXT NOT NULL,
           md5 TEXT NOT NULL,
           content_type TEXT NOT NULL,
           state TEXT NOT NULL,
           public_url TEXT,
           asset_json TEXT,
           error TEXT,
           created_at TEXT NOT NULL,
           updated_at TEXT NOT NULL,
           UNIQUE (scope, asset_id)
         );
         CREATE INDEX media_uploads_by_hash ON media_uploads (scope, sha256);
         CREATE INDEX media_uploads_by_state ON media_uploads (state);`,
  },
];

/**
 * Where an upload stands. `reserving`: the asset id is chosen and saved, the reservation may or may not have
 * reached the service. `reserved`/`uploading`/`uploaded`: the PUT is due, under way, done. `completed`: the asset
 * exists. `failed`: given up on; a later upload of the same bytes starts afresh.
 */
export type UploadState = 'reserving' | 'reserved' | 'uploading' | 'uploaded' | 'completed' | 'failed';

export interface UploadRecord {
  readonly id: number;
  readonly scope: string;
  readonly runId: string | null;
  readonly assetId: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly sha256: string;
  readonly md5: string;
  readonly contentType: UploadContentType;
  readonly state: UploadState;
  readonly publicUrl: string | null;
  readonly assetJson: string | null;
  readonly error: string | null;
}

interface Row {
  id: number;
  scope: string;
  run_id: string | null;
  asset_id: string;
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  md5: string;
  content_type: UploadContentType;
  state: UploadState;
  public_url: string | null;
  asset_json: string | null;
  error: string | null;
}

const toRecord = (r: Row): UploadRecord => ({
  id: r.id,
  scope: r.scope,
  runId: r.run_id,
  assetId: r.asset_id,
  path: r.path,
  size: r.size,
  mtimeMs: r.mtime_ms,
  sha256: r.sha256,
  md5: r.md5,
  contentType: r.content_type,
  state: r.state,
  publicUrl: r.public_url,
  assetJson: r.asset_json,
  error: r.error,
});

/** A record before it is saved: its file, its asset and what it is, with the digests whole. */
export type NewUpload = Pick<
  UploadRecord,
  'scope' | 'runId' | 'assetId' | 'path' | 'size' | 'mtimeMs' | 'contentType'
> & { readonly digests: Digests };

export interface MediaStore {
  readonly db: Db;
  cachedDigests(path: string, size: number, mtimeMs: number): Digests | null;
  cacheDigests(path: string, size: number, mtimeMs: number, digests: Digests): void;
  /** The newest non-failed upload of these bytes in this scope. */
  findByHash(scope: string, sha256: string): UploadRecord | null;
  insert(u: NewUpload): UploadRecord;
  /** Points an existing record at the file now being uploaded (same bytes, maybe another path). */
  retarget(id: number, path: string, size: number, mtimeMs: number): void;
  setState(id: number, state: UploadState, extra?: { error?: string | null }): void;
  /** Records that the service keeps these bytes under `assetId`; a stale failed record holding that id gives way. */
  adoptAsset(id: number, assetId: string): void;
  complete(id: number, publicUrl: string, assetJson: string): void;
  get(id: number): UploadRecord | null;
  unfinished(): UploadRecord[];
  all(): UploadRecord[];
}

export function openMediaStore(store: Store): MediaStore {
  store.migrate('media', MEDIA_MIGRATIONS);
  const db = store.db;
  const now = (): string => new Date().toISOString();
  const getCache = db.prepare<[string], { size: number; mtime_ms: number; sha256: string; md5: string }>(
    'SELECT size, mtime_ms, sha256, md5 FROM media_hash_cache WHERE path = ?',
  );
  const putCache = db.prepare<[string, number, number, string, string, string]>(
    `INSERT INTO media_hash_cache (path, size, mtime_ms, sha256, md5, hashed_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
       sha256 = excluded.sha256, md5 = excluded.md5, hashed_at = excluded.hashed_at`,
  );
  const byHash = db.prepare<[string, string], Row>(
    `SELECT * FROM media_uploads WHERE scope = ? AND sha256 = ? AND state <> 'failed' ORDER BY id DESC LIMIT 1`,
  );
  const insertStmt = db.prepare(
    `INSERT INTO media_uploads (scope, run_id, asset_id, path, size, mtime_ms, sha256, md5, content_type, state,
       created_at, updated_at)
     VALUES (@scope, @run_id, @asset_id, @path, @size, @mtime_ms, @sha256, @md5, @content_type, 'reserving', @now, @now)`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM media_uploads WHERE id = ?');
  const setStateStmt = db.prepare<[string, string | null, string, number]>(
    'UPDATE media_uploads SET state = ?, error = ?, updated_at = ? WHERE id = ?',
  );
  const setAssetStmt = db.prepare<[string, number]>('UPDATE media_uploads SET asset_id = ? WHERE id = ?');
  const dropFailed = db.prepare<[string, string, number]>(
    `DELETE FROM media_uploads WHERE scope = ? AND asset_id = ? AND state = 'failed' AND id <> ?`,
  );
  const byAsset = db.prepare<[string, string], Row>(
    'SELECT * FROM media_uploads WHERE scope = ? AND asset_id = ?',
  );
  const retargetStmt = db.prepare<[string, number, number, string, number]>(
    'UPDATE media_uploads SET path = ?, size = ?, mtime_ms = ?, updated_at = ? WHERE id = ?',
  );
  const completeStmt = db.prepare<[string, string, string, number]>(
    `UPDATE media_uploads SET state = 'completed', public_url = ?, asset_json = ?, error = NULL, updated_at = ?
     WHERE id = ?`,
  );
  const unfinishedStmt = db.prepare<[], Row>(
    `SELECT * FROM media_uploads WHERE state IN ('reserving', 'reserved', 'uploading', 'uploaded') ORDER BY id`,
  );
  const allStmt = db.prepare<[], Row>('SELECT * FROM media_uploads ORDER BY id');

  return {
    db,
    cachedDigests(path, size, mtimeMs) {
      const r = getCache.get(path);
      return r && r.size === size && r.mtime_ms === mtimeMs ? { sha256: r.sha256, md5: r.md5, size } : null;
    },
    cacheDigests(path, size, mtimeMs, d) {
      putCache.run(path, size, mtimeMs, d.sha256, d.md5, now());
    },
    findByHash(scope, sha256) {
      const r = byHash.get(scope, sha256);
      return r ? toRecord(r) : null;
    },
    insert(u) {
      const info = insertStmt.run({
        scope: u.scope,
        run_id: u.runId,
        asset_id: u.assetId,
        path: u.path,
        size: u.size,
        mtime_ms: u.mtimeMs,
        sha256: u.digests.sha256,
        md5: u.digests.md5,
        content_type: u.contentType,
        now: now(),
      });
      return toRecord(byId.get(Number(info.lastInsertRowid)) as Row);
    },
    retarget(id, path, size, mtimeMs) {
      retargetStmt.run(path, size, mtimeMs, now(), id);
    },
    setState(id, state, extra = {}) {
      setStateStmt.run(state, extra.error ?? null, now(), id);
    },
    adoptAsset(id, assetId) {
      db.transaction(() => {
        const scope = byId.get(id)?.scope;
        if (scope === undefined) return;
        dropFailed.run(scope, assetId, id);
        // Another live record of the same asset keeps it; this one still completes through the returned asset.
        if (!byAsset.get(scope, assetId)) setAssetStmt.run(assetId, id);
      })();
    },
    complete(id, publicUrl, assetJson) {
      completeStmt.run(publicUrl, assetJson, now(), id);
    },
    get(id) {
      const r = byId.get(id);
      return r ? toRecord(r) : null;
    },
    unfinished: () => unfinishedStmt.all().map(toRecord),
    all: () => allStmt.all().map(toRecord),
  };
}
