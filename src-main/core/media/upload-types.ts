import type { MediaAsset } from '../../../src-shared/api/media';
import type { ApiClient } from '../api/client';
import type { UploadError } from './upload-errors';
import type { MediaStore } from './media-store';

/** The API calls an upload needs; the whole ApiClient satisfies it. */
export type MediaApi = Pick<
  ApiClient,
  'reserveMedia' | 'completeMedia' | 'reserveRunMedia' | 'completeRunMedia' | 'dispatcher' | 'baseUrl'
>;

/** Upload as run media of an automation run (the executor) rather than to the account's library. */
export interface RunTarget {
  readonly runId: string;
  readonly runToken: string;
}

export type UploadEvent =
  | { readonly type: 'queued'; readonly file: string }
  | { readonly type: 'hashing'; readonly file: string; readonly bytes: number; readonly total: number }
  | { readonly type: 'hashed'; readonly file: string; readonly sha256: string; readonly cached: boolean }
  | {
      readonly type: 'reserved';
      readonly file: string;
      readonly assetId: string;
      readonly alreadyUploaded: boolean;
    }
  | {
      readonly type: 'progress';
      readonly file: string;
      readonly assetId: string;
      readonly sent: number;
      readonly total: number;
    }
  | { readonly type: 'uploaded'; readonly file: string; readonly assetId: string; readonly ms: number }
  | { readonly type: 'retry'; readonly file: string; readonly assetId: string; readonly reason: string }
  | { readonly type: 'completed'; readonly file: string; readonly result: UploadResult }
  | { readonly type: 'failed'; readonly file: string; readonly error: UploadError };

export interface UploadResult {
  readonly file: string;
  readonly assetId: string;
  readonly asset: MediaAsset;
  /** The service had these bytes already; no PUT was sent. */
  readonly alreadyUploaded: boolean;
  readonly contentType: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly md5: string;
}

export type UploadOutcome =
  | { readonly file: string; readonly ok: true; readonly result: UploadResult }
  | { readonly file: string; readonly ok: false; readonly error: UploadError };

export interface BeforePutContext {
  readonly file: string;
  readonly assetId: string;
  readonly uploadUrl: string;
  readonly expiresAt: string | null;
}

/** What the steps of one upload share: the service, the local records, where events go, and the caller's limits. */
export interface UploadContext {
  readonly api: MediaApi;
  readonly media: MediaStore;
  readonly emit: (e: UploadEvent) => void;
  readonly signal?: AbortSignal | undefined;
  /** Bandwidth cap for each PUT, bytes per second. */
  readonly maxBytesPerSecond?: number | undefined;
  /** Awaited just before each PUT: an executor can report a step, a test can move the sandbox clock. */
  readonly beforePut?: ((ctx: BeforePutContext) => void | Promise<void>) | undefined;
}
