import type { UploadContentType } from '../../../src-shared/api';

export interface FileFacts {
  readonly bytes: number;
  /** From the file's signature; null when it is not one of the service's upload types. */
  readonly contentType: UploadContentType | null;
}

export interface FileHashes {
  readonly sha256: string;
  readonly md5: string;
}

/**
 * What the executor needs from the media pipeline (src-main/core/media). A thin seam so the pipeline
 * can be swapped in whole; `createLocalMedia` is the built-in implementation.
 */
export interface ExecutorMedia {
  inspect(file: string): Promise<FileFacts>;
  hash(file: string): Promise<FileHashes>;
  /** A copy of an MP4 at most `maxBytes` long in `outDir` (the file itself when it already fits). */
  compressToFit(file: string, maxBytes: number, outDir: string): Promise<string>;
  /** PUTs the file to a presigned address; safe to repeat. */
  put(url: string, headers: Readonly<Record<string, string>>, file: string, bytes: number): Promise<void>;
}
