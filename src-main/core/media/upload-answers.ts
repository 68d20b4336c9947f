import { LIMITS } from '../../../src-shared/api/limits';
import { ApiError, NetworkError, PostdeskError } from '../api/errors';
import type { UploadRecord } from './media-store';
import { UploadError } from './upload-errors';

/** A failed reservation or completion as an upload error that says what to do; anything else is rethrown. */
export function reserveError(file: string, rec: UploadRecord, err: unknown): UploadError {
  if (err instanceof ApiError) {
    if (err.status === 429) {
      return new UploadError(
        'quota',
        file,
        `${file}: the service refused the reservation: media storage quota exceeded (at most ${LIMITS.mediaPendingUploads} pending uploads, ${LIMITS.mediaObjects.toLocaleString('en')} objects or 20 GiB per account); let pending uploads finish or delete media, then retry`,
        rec.assetId,
      );
    }
    if (err.status === 409) {
      return new UploadError(
        'conflict',
        file,
        `${file}: asset ${rec.assetId} is already reserved with other content (MEDIA_UPLOAD_CONFLICT); the local record was reset, so running the upload again reserves a new asset`,
        rec.assetId,
      );
    }
    if (err.status === 403) {
      return new UploadError(
        'service',
        file,
        `${file}: the service refused the reservation (${err.wireCode ?? 403}): the API key needs the media:write scope`,
        rec.assetId,
      );
    }
    return new UploadError('service', file, `${file}: ${err.message}`, rec.assetId);
  }
  if (err instanceof NetworkError)
    return new UploadError('network', file, `${file}: ${err.message}`, rec.assetId);
  if (err instanceof PostdeskError)
    return new UploadError('service', file, `${file}: ${err.message}`, rec.assetId);
  throw err;
}

/** The gist of an upload address's answer body: the service's code and message, or the start of the text. */
export function shortBody(text: string): string {
  try {
    const j = JSON.parse(text) as { code?: unknown; error?: unknown };
    if (typeof j.error === 'string') return typeof j.code === 'string' ? `${j.code}: ${j.error}` : j.error;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 200) || 'no body';
}
