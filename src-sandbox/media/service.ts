import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import {
  LIMITS,
  MediaReservationRequest,
  type MediaAsset,
  type MediaReservationResponse,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError, notFound } from '../errors';
import { parse } from '../validate';
import { probeMedia } from './probe';
import { checkUploadSignature, signUploadUrl } from './signing';
import {
  createFileReadStream,
  createPrivateWriteStream,
  removePath,
  renamePath,
  statPath,
} from '../../src-main/core/files';

export interface MediaRow {
  id: string;
  owner_id: string;
  /** A random uuid naming the stored object, the upload address and the public URL (never the asset_id). */
  object_key: string;
  run_id: string | null;
  content_type: string;
  content_length: number;
  sha256: string;
  md5: string;
  status: 'pending' | 'uploaded' | 'expired';
  bytes_received: number;
  upload_expires_at: string;
  metadata: string | null;
  created_at: string;
  completed_at: string | null;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};

export const uploadPath = (objectKey: string): string => `/uploads/media/${objectKey}`;
export const objectPath = (ctx: SandboxContext, objectKey: string): string => join(ctx.objectsDir, objectKey);
export const publicUrlOf = (
  ctx: SandboxContext,
  row: Pick<MediaRow, 'object_key' | 'content_type'>,
): string => `${ctx.publicBaseUrl()}/media/${row.object_key}.${EXTENSIONS[row.content_type] ?? 'bin'}`;
const mediaTypeOf = (contentType: string): 'image' | 'video' =>
  contentType.startsWith('video/') ? 'video' : 'image';

const conflict = (message: string): SandboxError => new SandboxError(409, 'MEDIA_UPLOAD_CONFLICT', message);
const quota = (message: string): SandboxError =>
  new SandboxError(429, 'MEDIA_STORAGE_QUOTA_EXCEEDED', message);

export function assetJson(ctx: SandboxContext, row: MediaRow): MediaAsset {
  return {
    id: row.id,
    public_url: publicUrlOf(ctx, row),
    media_type: mediaTypeOf(row.content_type),
    mime_type: row.content_type,
    bytes: row.content_length,
    sha256: row.sha256,
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {},
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

/** The owner's asset `id`; another owner's asset of the same id is not there. */
function getRow(ctx: SandboxContext, ownerId: string, id: string): MediaRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM media_assets WHERE owner_id = ? AND id = ?').get(ownerId, id) as
      MediaRow | undefined) ?? null
  );
}

/** The asset behind an upload address or public URL. */
function getRowByKey(ctx: SandboxContext, objectKey: string): MediaRow | null {
  return (
    (stmt(ctx.db, 'SELECT * FROM media_assets WHERE object_key = ?').get(objectKey) as
      MediaRow | undefined) ?? null
  );
}

/** A completed asset of the owner as a post media entry, or null (missing, foreign or not completed). */
export function uploadedAssetRef(
  ctx: SandboxContext,
  ownerId: string,
  assetId: string,
): { asset_id: string; url: string; mime_type: string } | null {
  const row = getRow(ctx, ownerId, assetId);
  if (!row || row.status !== 'uploaded') return null;
  return { asset_id: row.id, url: publicUrlOf(ctx, row), mime_type: row.content_type };
}

function reservationJson(ctx: SandboxContext, row: MediaRow): MediaReservationResponse {
  const md5Base64 = Buffer.from(row.md5, 'hex').toString('base64');
  return {
    asset_id: row.id,
    already_uploaded: false,
    upload_url: signUploadUrl(
      ctx.db,
      ctx.publicBaseUrl(),
      uploadPath(row.object_key),
      new Date(row.upload_expires_at),
    ),
    upload_method: 'PUT',
    upload_headers: {
      'content-type': row.content_type,
      'x-content-sha256': row.sha256,
      'content-md5': md5Base64,
    },
    expires_at: row.upload_expires_at,
    media: null,
    next: `PUT the ${row.content_length} bytes to upload_url with upload_headers, then PATCH /api/cli/media/uploads with {"asset_id": "${row.id}"}`,
  };
}

function alreadyUploadedJson(ctx: SandboxContext, row: MediaRow): MediaReservationResponse {
  return {
    asset_id: row.id,
    already_uploaded: true,
    upload_url: null,
    upload_method: 'PUT',
    upload_headers: {},
    expires_at: null,
    media: assetJson(ctx, row),
    next: `skip the PUT: reuse asset_id ${row.id} (media.public_url) in your post`,
  };
}

const sameContent = (row: MediaRow, r: z.infer<typeof MediaReservationRequest>): boolean =>
  row.content_type === r.content_type &&
  row.content_length === r.content_length &&
  row.sha256 === r.content_sha256 &&
  row.md5 === r.content_md5;

function checkQuota(ctx: SandboxContext, ownerId: string, nowIso: string, adding: number): void {
  const usage = stmt(
    ctx.db,
    `SELECT
       SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
       SUM(CASE WHEN status = 'uploaded' THEN 1 ELSE 0 END) AS objects,
       SUM(CASE WHEN status IN ('pending', 'uploaded') THEN content_length ELSE 0 END) AS bytes
     FROM media_assets WHERE owner_id = ? AND (status = 'uploaded' OR (status = 'pending' AND (upload_expires_at > ? OR bytes_received > 0)))`,
  ).get(ownerId, nowIso) as { pending: number | null; objects: number | null; bytes: number | null };
  const baseline = (stmt(
    ctx.db,
    'SELECT storage_used_bytes AS bytes, storage_used_objects AS objects FROM owners WHERE id = ?',
  ).get(ownerId) as { bytes: number; objects: number } | undefined) ?? { bytes: 0, objects: 0 };
  if ((usage.pending ?? 0) >= LIMITS.mediaPendingUploads) {
    throw quota(
      `more than ${LIMITS.mediaPendingUploads} pending uploads: complete some or let them expire first`,
    );
  }
  if ((usage.objects ?? 0) + baseline.objects >= LIMITS.mediaObjects) {
    throw quota(`the media storage holds ${LIMITS.mediaObjects} objects, its limit`);
  }
  if ((usage.bytes ?? 0) + baseline.bytes + adding > LIMITS.mediaStorageBytes) {
    throw quota(`the media storage would exceed ${LIMITS.mediaStorageBytes / 1024 ** 3} GiB`);
  }
}

/**
 * Reserves an upload (`POST /api/cli/media/uploads`, and the run variant with `runId`). Retries with
 * the same `asset_id` and content return the same asset (a fresh address when the old one expired);
 * without `asset_id`, a live pending reservation of the same content is returned again. Content the
 * owner already uploaded answers `already_uploaded` with `media`. Quotas: 429; reuse of the owner's
 * `asset_id` for other content: 409. An `asset_id` is the owner's own: another owner's asset of the
 * same id is neither seen nor touched, and the reservation makes a fresh asset.
 */
export function reserveMedia(
  ctx: SandboxContext,
  ownerId: string,
  body: unknown,
  opts: { runId?: string } = {},
): MediaReservationResponse {
  const r = parse(MediaReservationRequest, body);
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const expiresAt = new Date(now.getTime() + LIMITS.presignedUploadMs).toISOString();
  return ctx.db.transaction((): MediaReservationResponse => {
    if (r.asset_id) {
      const existing = getRow(ctx, ownerId, r.asset_id);
      if (existing) {
        if (!sameContent(existing, r)) {
          throw conflict(
            `asset_id ${existing.id} was reserved for different content (type, length or hashes differ)`,
          );
        }
        if (existing.status === 'uploaded') return alreadyUploadedJson(ctx, existing);
        if (existing.upload_expires_at <= nowIso || existing.status === 'expired') {
          if (existing.status === 'expired') checkQuota(ctx, ownerId, nowIso, existing.content_length);
          stmt(
            ctx.db,
            `UPDATE media_assets SET status = 'pending', upload_expires_at = ? WHERE object_key = ?`,
          ).run(expiresAt, existing.object_key);
          return reservationJson(ctx, getRowByKey(ctx, existing.object_key)!);
        }
        return reservationJson(ctx, existing);
      }
    }
    const done = stmt(
      ctx.db,
      `SELECT * FROM media_assets WHERE owner_id = ? AND sha256 = ? AND status = 'uploaded' ORDER BY created_at LIMIT 1`,
    ).get(ownerId, r.content_sha256) as MediaRow | undefined;
    if (done) return alreadyUploadedJson(ctx, done);
    if (!r.asset_id) {
      const live = stmt(
        ctx.db,
        `SELECT * FROM media_assets WHERE owner_id = ? AND sha256 = ? AND md5 = ? AND content_type = ? AND content_length = ?
           AND status = 'pending' AND upload_expires_at > ? ORDER BY created_at LIMIT 1`,
      ).get(ownerId, r.content_sha256, r.content_md5, r.content_type, r.content_length, nowIso) as
        MediaRow | undefined;
      if (live) return reservationJson(ctx, live);
    }
    checkQuota(ctx, ownerId, nowIso, r.content_length);
    const id = r.asset_id ?? ctx.uuid();
    // Names the public URL, which needs no key: fully random, never time-ordered.
    const objectKey = randomUUID();
    stmt(
      ctx.db,
      `INSERT INTO media_assets (id, owner_id, object_key, run_id, content_type, content_length, sha256, md5, status,
         bytes_received, upload_expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    ).run(
      id,
      ownerId,
      objectKey,
      opts.runId ?? null,
      r.content_type,
      r.content_length,
      r.content_sha256,
      r.content_md5,
      expiresAt,
      nowIso,
    );
    return reservationJson(ctx, getRowByKey(ctx, objectKey)!);
  })();
}

/**
 * Completes an upload (`PATCH /api/cli/media/uploads`): the bytes must have arrived and verified,
 * else 409. Completing twice returns the same asset. With `runId`, only that run's assets are found.
 */
export async function completeMedia(
  ctx: SandboxContext,
  ownerId: string,
  assetId: string,
  opts: { runId?: string } = {},
): Promise<MediaAsset> {
  const row = getRow(ctx, ownerId, assetId);
  if (!row || (opts.runId !== undefined && row.run_id !== opts.runId)) {
    throw notFound('media asset');
  }
  if (row.status === 'uploaded') return assetJson(ctx, row);
  if (row.bytes_received !== row.content_length) {
    if (row.status === 'expired')
      throw conflict('the upload address expired before the bytes arrived; reserve again');
    throw conflict('the bytes have not been uploaded yet: PUT them to upload_url before completing');
  }
  const metadata = await probeMedia(objectPath(ctx, row.object_key), mediaTypeOf(row.content_type));
  const nowIso = ctx.clock.now().toISOString();
  stmt(
    ctx.db,
    `UPDATE media_assets SET status = 'uploaded', metadata = ?, completed_at = ? WHERE object_key = ? AND status != 'uploaded'`,
  ).run(JSON.stringify(metadata), nowIso, row.object_key);
  return assetJson(ctx, getRowByKey(ctx, row.object_key)!);
}

/** Pending reservations whose address expired with no bytes received stop counting as pending. */
export function expireReservations(ctx: SandboxContext, now: Date): void {
  stmt(
    ctx.db,
    `UPDATE media_assets SET status = 'expired' WHERE status = 'pending' AND bytes_received = 0 AND upload_expires_at <= ?`,
  ).run(now.toISOString());
}

const integrity = (message: string): SandboxError =>
  new SandboxError(400, 'UPLOAD_INTEGRITY_MISMATCH', message);

export interface UploadRequest {
  /** The object key from the upload address. */
  objectKey: string;
  query: { expires?: unknown; signature?: unknown };
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Readable;
}

/**
 * The presigned PUT. The address is the credential (no API key). The body is streamed to a temporary
 * file while its length, MD5 and SHA-256 are computed; only a verified file replaces the object.
 * Expired address: 403 UPLOAD_URL_EXPIRED; bad signature: 403 UPLOAD_URL_INVALID; wrong bytes: 400
 * UPLOAD_INTEGRITY_MISMATCH; an already completed asset: 409 MEDIA_UPLOAD_CONFLICT.
 */
export async function receiveUpload(
  ctx: SandboxContext,
  up: UploadRequest,
): Promise<{ asset_id: string; bytes: number }> {
  const check = checkUploadSignature(ctx.db, uploadPath(up.objectKey), up.query, ctx.clock.nowMs());
  if (check === 'invalid')
    throw new SandboxError(403, 'UPLOAD_URL_INVALID', 'the upload address signature is invalid');
  if (check === 'expired') {
    throw new SandboxError(
      403,
      'UPLOAD_URL_EXPIRED',
      'the upload address has expired (10 minutes); reserve again',
    );
  }
  const row = getRowByKey(ctx, up.objectKey);
  if (!row) throw notFound('media asset');
  if (row.status === 'uploaded') throw conflict('this asset is already completed; its bytes cannot change');
  const type = String(up.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== row.content_type) {
    throw integrity(`content-type: must be ${row.content_type} as reserved (got ${type || 'none'})`);
  }
  const declaredLength = up.headers['content-length'];
  if (declaredLength !== undefined && Number(declaredLength) !== row.content_length) {
    throw integrity(
      `content-length: must be ${row.content_length} as reserved (got ${String(declaredLength)})`,
    );
  }
  const shaHeader = up.headers['x-content-sha256'];
  if (shaHeader !== undefined && shaHeader !== row.sha256)
    throw integrity('x-content-sha256: differs from the reserved content_sha256');
  const md5Header = up.headers['content-md5'];
  if (md5Header !== undefined && md5Header !== Buffer.from(row.md5, 'hex').toString('base64')) {
    throw integrity('content-md5: differs from the reserved content_md5 (send it base64-encoded)');
  }

  const sha = createHash('sha256');
  const md5 = createHash('md5');
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > row.content_length) {
        done(integrity(`content_length: more than the reserved ${row.content_length} bytes were sent`));
        return;
      }
      sha.update(chunk);
      md5.update(chunk);
      done(null, chunk);
    },
  });
  const tmp = `${objectPath(ctx, row.object_key)}.${ctx.uuid()}.part`;
  try {
    await pipeline(up.body, meter, createPrivateWriteStream(tmp));
    if (received !== row.content_length) {
      throw integrity(`content_length: received ${received} bytes, reserved ${row.content_length}`);
    }
    if (md5.digest('hex') !== row.md5)
      throw integrity('content_md5: the bytes do not match the reserved MD5');
    if (sha.digest('hex') !== row.sha256)
      throw integrity('content_sha256: the bytes do not match the reserved SHA-256');
    await renamePath(tmp, objectPath(ctx, row.object_key));
  } catch (err) {
    await removePath(tmp);
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(
      400,
      'UPLOAD_INTEGRITY_MISMATCH',
      'the upload body ended early or could not be stored',
    );
  }
  stmt(ctx.db, 'UPDATE media_assets SET bytes_received = ? WHERE object_key = ?').run(
    received,
    row.object_key,
  );
  return { asset_id: row.id, bytes: received };
}

/** An uploaded object for `GET /media/<object key>.<ext>`, or null. */
export async function storedObject(
  ctx: SandboxContext,
  objectKey: string,
): Promise<{
  path: string;
  size: number;
  contentType: string;
  open(start?: number, end?: number): Readable;
} | null> {
  const row = getRowByKey(ctx, objectKey);
  if (!row || row.status !== 'uploaded') return null;
  const path = objectPath(ctx, row.object_key);
  const info = await statPath(path).catch(() => null);
  if (!info) return null;
  return {
    path,
    size: info.size,
    contentType: row.content_type,
    open: (start, end) => createFileReadStream(path, start === undefined ? {} : { start, end }),
  };
}
