import type { MediaAsset, MediaReservationResponse } from '../../../src-shared/api/media';
import { ApiError } from '../api/errors';
import type { UploadRecord } from './media-store';
import { reserveError } from './upload-answers';
import { UploadError } from './upload-errors';
import { putBytes } from './upload-put';
import type { RunTarget, UploadContext, UploadResult } from './upload-types';

/** New addresses asked for in a row (each after the last one refused the bytes) before the upload gives up. */
const READDRESS_LIMIT = 3;

/**
 * Moves one persisted upload forward from whatever state it is in until the asset exists: reserve, PUT, complete,
 * with a new reservation whenever the address is refused or the service lacks the whole object.
 */
export async function driveUpload(
  ctx: UploadContext,
  file: string,
  start: UploadRecord,
  run: RunTarget | undefined,
): Promise<UploadResult> {
  const { media, emit } = ctx;
  let rec = start;
  let readdressed = 0;
  let stateNow = rec.state;
  for (;;) {
    if (stateNow === 'uploaded') {
      try {
        return finish(ctx, file, rec, await complete(ctx, rec, run), false);
      } catch (err) {
        // The service does not hold the whole object (a PUT that died mid-way): send it again.
        if (!(err instanceof ApiError && (err.status === 409 || err.status === 404)))
          throw reserveError(file, rec, err);
        emit({
          type: 'retry',
          file,
          assetId: rec.assetId,
          reason: `completing answered ${err.status}; uploading again`,
        });
        stateNow = 'reserving';
      }
    }
    const res = await reserve(ctx, file, rec, run);
    if (res.asset_id !== rec.assetId) {
      // The service matched these bytes to an asset it already has under another id: adopt that id.
      media.adoptAsset(rec.id, res.asset_id);
      rec = { ...rec, assetId: res.asset_id };
    }
    media.setState(rec.id, 'reserved');
    emit({ type: 'reserved', file, assetId: rec.assetId, alreadyUploaded: res.already_uploaded });
    if (res.already_uploaded) return finish(ctx, file, rec, await assetHeld(ctx, file, rec, res, run), true);
    if (await putBytes(ctx, file, rec, res)) {
      stateNow = 'uploaded';
      continue;
    }
    readdressed += 1;
    if (readdressed >= READDRESS_LIMIT) {
      throw new UploadError(
        'rejected',
        file,
        `${file}: the upload address was refused ${readdressed} times in a row; giving up`,
        rec.assetId,
      );
    }
    stateNow = 'reserving';
  }
}

async function reserve(
  ctx: UploadContext,
  file: string,
  rec: UploadRecord,
  run: RunTarget | undefined,
): Promise<MediaReservationResponse> {
  const body = {
    asset_id: rec.assetId,
    content_type: rec.contentType,
    content_length: rec.size,
    content_sha256: rec.sha256,
    content_md5: rec.md5,
  };
  try {
    return run
      ? await ctx.api.reserveRunMedia(run.runId, run.runToken, body, { signal: ctx.signal })
      : await ctx.api.reserveMedia(body, { signal: ctx.signal });
  } catch (err) {
    const e = reserveError(file, rec, err);
    if (e.kind === 'conflict') ctx.media.setState(rec.id, 'failed', { error: e.message });
    throw e;
  }
}

async function complete(
  ctx: UploadContext,
  rec: UploadRecord,
  run: RunTarget | undefined,
): Promise<MediaAsset> {
  const body = { asset_id: rec.assetId };
  return run
    ? ctx.api.completeRunMedia(run.runId, run.runToken, body, { signal: ctx.signal })
    : ctx.api.completeMedia(body, { signal: ctx.signal });
}

/** The asset the service already holds these bytes as: in the reservation's answer, else from completing it. */
async function assetHeld(
  ctx: UploadContext,
  file: string,
  rec: UploadRecord,
  res: MediaReservationResponse,
  run: RunTarget | undefined,
): Promise<MediaAsset> {
  if (res.media) return res.media;
  try {
    return await complete(ctx, rec, run);
  } catch (err) {
    throw reserveError(file, rec, err);
  }
}

function finish(
  ctx: UploadContext,
  file: string,
  rec: UploadRecord,
  asset: MediaAsset,
  alreadyUploaded: boolean,
): UploadResult {
  ctx.media.complete(rec.id, asset.public_url, JSON.stringify(asset));
  const result: UploadResult = {
    file,
    assetId: asset.id,
    asset,
    alreadyUploaded,
    contentType: rec.contentType,
    bytes: rec.size,
    sha256: rec.sha256,
    md5: rec.md5,
  };
  ctx.emit({ type: 'completed', file, result });
  return result;
}
