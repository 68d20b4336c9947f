import { PostdeskError } from '../api/errors';

/**
 * Why an upload stopped. `check`: the file breaks a limit (nothing was sent). `changed`: the file changed under
 * the upload. `quota`: 429 MEDIA_STORAGE_QUOTA_EXCEEDED. `conflict`: 409 MEDIA_UPLOAD_CONFLICT. `rejected`: the
 * upload address kept refusing the bytes. `service`/`network`: other failures. `needs-token`: a run upload to
 * resume without its run token.
 */
export type UploadErrorKind =
  'check' | 'changed' | 'quota' | 'conflict' | 'rejected' | 'service' | 'network' | 'needs-token' | 'aborted';

export class UploadError extends PostdeskError {
  readonly kind: UploadErrorKind;
  readonly file: string;
  readonly assetId: string | null;
  constructor(kind: UploadErrorKind, file: string, message: string, assetId: string | null = null) {
    super(message);
    this.kind = kind;
    this.file = file;
    this.assetId = assetId;
  }
  protected override details(): Record<string, unknown> {
    return { kind: this.kind, file: this.file, assetId: this.assetId };
  }
}
