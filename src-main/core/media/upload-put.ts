import type { MediaReservationResponse } from '../../../src-shared/api/media';
import { errorText } from '../common/error-text';
import { retry } from '../common/retry';
import { statPath } from '../files';
import type { UploadRecord } from './media-store';
import { putFile } from './put';
import { shortBody } from './upload-answers';
import { UploadError } from './upload-errors';
import type { UploadContext } from './upload-types';

/** Tries of one PUT to one address: only after a 5xx from it or a cut connection (the retry policy for uploads). */
const PUT_ATTEMPTS = 4;
// Answers from a presigned PUT meaning "this address no longer takes these bytes": expired, revoked or refused.
const READDRESS_STATUSES = new Set([400, 403, 410]);

/** Cancelled, whatever was under way: the one answer an upload gives then. */
export const cancelled = (file: string, assetId?: string): UploadError =>
  new UploadError('aborted', file, `${file}: upload cancelled`, assetId);

/**
 * PUTs the bytes to the reservation's address; true when stored, false when the address must be renewed. A 5xx from
 * the address, or a connection lost mid-way, sends the same bytes again to the same address (PUT_ATTEMPTS in all).
 */
export async function putBytes(
  ctx: UploadContext,
  file: string,
  rec: UploadRecord,
  res: MediaReservationResponse,
): Promise<boolean> {
  const url = res.upload_url;
  if (!url) {
    throw new UploadError('service', file, `${file}: the reservation carries no upload address`, rec.assetId);
  }
  await ctx.beforePut?.({ file, assetId: rec.assetId, uploadUrl: url, expiresAt: res.expires_at ?? null });
  ctx.media.setState(rec.id, 'uploading');
  const transient = new WeakSet<UploadError>();
  return retry(() => putOnce(ctx, file, rec, res, url, transient), {
    attempts: PUT_ATTEMPTS,
    minDelayMs: 250,
    maxDelayMs: 2_000,
    signal: ctx.signal,
    shouldRetry: (e) => e instanceof UploadError && transient.has(e),
    onRetry: () =>
      ctx.emit({
        type: 'retry',
        file,
        assetId: rec.assetId,
        reason: 'the upload was interrupted; sending it again',
      }),
  }).catch((err: unknown) => {
    // Cancelled while waiting to try again: the same answer as a cancel during the PUT.
    if (ctx.signal?.aborted && !(err instanceof UploadError)) throw cancelled(file, rec.assetId);
    throw err;
  });
}

/** One PUT of the whole file; an error worth sending again is added to `transient`. */
async function putOnce(
  ctx: UploadContext,
  file: string,
  rec: UploadRecord,
  res: MediaReservationResponse,
  url: string,
  transient: WeakSet<UploadError>,
): Promise<boolean> {
  const { media, emit } = ctx;
  const now = await statPath(rec.path).catch(() => null);
  if (!now || now.size !== rec.size || now.mtimeMs !== rec.mtimeMs) {
    media.setState(rec.id, 'failed', { error: 'file changed' });
    throw new UploadError(
      'changed',
      file,
      `${file}: the file changed or disappeared before its upload finished`,
      rec.assetId,
    );
  }
  const started = performance.now();
  let answer: Awaited<ReturnType<typeof putFile>>;
  try {
    answer = await putFile({
      url,
      headers: res.upload_headers ?? {},
      path: rec.path,
      size: rec.size,
      dispatcher: ctx.api.dispatcher,
      signal: ctx.signal,
      maxBytesPerSecond: ctx.maxBytesPerSecond,
      onProgress: (sent) => emit({ type: 'progress', file, assetId: rec.assetId, sent, total: rec.size }),
    });
  } catch (err) {
    if (ctx.signal?.aborted) throw cancelled(file, rec.assetId);
    const e = new UploadError('network', file, `${file}: the upload failed: ${errorText(err)}`, rec.assetId);
    transient.add(e);
    throw e;
  }
  if (answer.status >= 200 && answer.status < 300) {
    media.setState(rec.id, 'uploaded');
    emit({ type: 'uploaded', file, assetId: rec.assetId, ms: performance.now() - started });
    return true;
  }
  if (READDRESS_STATUSES.has(answer.status)) {
    emit({
      type: 'retry',
      file,
      assetId: rec.assetId,
      reason: `the upload address answered ${answer.status} (${shortBody(answer.text)}); reserving again`,
    });
    media.setState(rec.id, 'reserving');
    return false;
  }
  const e = new UploadError(
    'rejected',
    file,
    `${file}: the upload address answered ${answer.status}: ${shortBody(answer.text)}`,
    rec.assetId,
  );
  if (answer.status >= 500) transient.add(e);
  throw e;
}
