import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { LIMITS } from '../../../src-shared/api/limits';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';
import type { Store } from '../store/store';
import { checkFile, cliHint } from './check';
import type { CheckOptions } from './check';
import { hashFile } from './hash';
import type { Digests } from './hash';
import { openMediaStore } from './media-store';
import type { MediaStore, UploadRecord } from './media-store';
import { UploadError } from './upload-errors';
import { driveUpload } from './upload-drive';
import { cancelled } from './upload-put';
import type {
  MediaApi,
  RunTarget,
  UploadEvent,
  UploadOutcome,
  UploadResult,
  BeforePutContext,
  UploadContext,
} from './upload-types';
import type { Tools } from './tools';
import { statPath } from '../files';

export { UploadError } from './upload-errors';
export type { UploadErrorKind } from './upload-errors';

export type {
  BeforePutContext,
  MediaApi,
  RunTarget,
  UploadEvent,
  UploadOutcome,
  UploadResult,
} from './upload-types';

export interface UploaderOptions {
  readonly api: MediaApi;
  readonly store: Store;
  /** Which service the records belong to (base URL by default; the CLI says "sandbox" for its in-process one). */
  readonly scope?: string | undefined;
  readonly tools?: Tools | undefined;
  /** Files moving at once; at most `LIMITS.mediaPendingUploads`, because each holds one pending reservation. */
  readonly concurrency?: number | undefined;
  readonly onEvent?: ((e: UploadEvent) => void) | undefined;
  /** Bandwidth cap for each PUT, bytes per second. */
  readonly maxBytesPerSecond?: number | undefined;
  /** Which files the pre-upload check runs ffprobe on (default: videos). */
  readonly probe?: CheckOptions['probe'];
  /** Awaited just before each PUT: an executor can report a step, a test can move the sandbox clock. */
  readonly beforePut?: ((ctx: BeforePutContext) => void | Promise<void>) | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface Uploader {
  /** Checks, hashes, reserves, PUTs and completes one file; queued behind the concurrency limit. */
  upload(file: string, opts?: { readonly run?: RunTarget }): Promise<UploadResult>;
  /** Every file, each settled on its own; the outcomes are in the order given. */
  uploadMany(files: readonly string[], opts?: { readonly run?: RunTarget }): Promise<UploadOutcome[]>;
  /**
   * Finishes uploads a crash interrupted (state kept in the store). Run uploads need their token: give it in
   * `runTokens`, or they are left for later.
   */
  resumeUploads(opts?: { readonly runTokens?: ReadonlyMap<string, string> }): Promise<UploadOutcome[]>;
  readonly media: MediaStore;
}

/**
 * Checks, hashes and records one upload, then drives it (upload-drive.ts); the same bytes uploading twice at once
 * share one asset, the second waiting for the first instead of racing it.
 */
export function createUploader(opts: UploaderOptions): Uploader {
  const { api } = opts;
  const media = openMediaStore(opts.store);
  const base = opts.scope ?? api.baseUrl;
  const scopeOf = (run: RunTarget | undefined): string => (run ? `${base}#run:${run.runId}` : base);
  const concurrency = Math.min(Math.max(1, opts.concurrency ?? 3), LIMITS.mediaPendingUploads);
  const slot = createLimit(concurrency);
  const emit = (e: UploadEvent): void => opts.onEvent?.(e);
  const ctx: UploadContext = {
    api,
    media,
    emit,
    signal: opts.signal,
    maxBytesPerSecond: opts.maxBytesPerSecond,
    beforePut: opts.beforePut,
  };
  const inFlight = new Map<string, Promise<UploadResult>>();

  async function uploadOne(file: string, run: RunTarget | undefined): Promise<UploadResult> {
    const abs = resolve(file);
    const contentType = await checkedType(file, abs, opts);
    const st = await statPath(abs);
    const digests = await digestsFor(ctx, file, abs, st.size, st.mtimeMs, opts.signal);
    const scope = scopeOf(run);
    const key = `${scope}\n${digests.sha256}`;
    const running = inFlight.get(key);
    if (running) {
      const shared: UploadResult = { ...(await running), file };
      emit({ type: 'completed', file, result: shared });
      return shared;
    }
    const task = (async () => {
      let rec = media.findByHash(scope, digests.sha256);
      if (rec && rec.contentType === contentType) {
        if (rec.path !== abs || rec.size !== st.size || rec.mtimeMs !== st.mtimeMs) {
          media.retarget(rec.id, abs, st.size, st.mtimeMs);
          rec = media.get(rec.id) as UploadRecord;
        }
      } else {
        // The asset id is saved before the first request, so a retry or a restart reserves the same asset.
        rec = media.insert({
          scope,
          runId: run?.runId ?? null,
          assetId: randomUUID(),
          path: abs,
          size: st.size,
          mtimeMs: st.mtimeMs,
          digests,
          contentType,
        });
      }
      // A completed record still reserves: the service confirms it has the asset (already_uploaded) in one call.
      return driveUpload(ctx, file, rec.state === 'completed' ? { ...rec, state: 'reserving' } : rec, run);
    })();
    inFlight.set(key, task);
    try {
      return await task;
    } finally {
      inFlight.delete(key);
    }
  }

  const settle = async (file: string, work: () => Promise<UploadResult>): Promise<UploadOutcome> => {
    try {
      return { file, ok: true, result: await work() };
    } catch (err) {
      const error =
        err instanceof UploadError
          ? err
          : opts.signal?.aborted
            ? cancelled(file)
            : new UploadError('service', file, `${file}: ${errorText(err)}`);
      emit({ type: 'failed', file, error });
      return { file, ok: false, error };
    }
  };

  return {
    media,
    upload(file, o) {
      emit({ type: 'queued', file });
      return slot(() => uploadOne(file, o?.run));
    },
    uploadMany(files, o) {
      return Promise.all(
        files.map((file) => {
          emit({ type: 'queued', file });
          return slot(() => settle(file, () => uploadOne(file, o?.run)));
        }),
      );
    },
    async resumeUploads(o) {
      const jobs = media.unfinished().filter((r) => r.scope === base || r.scope.startsWith(`${base}#run:`));
      return Promise.all(
        jobs.map((rec) => slot(() => settle(rec.path, () => resumeOne(ctx, rec, o?.runTokens)))),
      );
    },
  };
}

/** The file's content type once the pre-upload check passed; the check's errors, in the file's own name, if not. */
async function checkedType(
  file: string,
  abs: string,
  opts: UploaderOptions,
): Promise<NonNullable<Awaited<ReturnType<typeof checkFile>>['contentType']>> {
  const check = await checkFile(abs, {
    probe: opts.probe ?? 'video',
    tools: opts.tools,
    signal: opts.signal,
  });
  if (check.ok && check.contentType) return check.contentType;
  const errors = check.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.message}${cliHint(p, abs)}`);
  throw new UploadError(
    'check',
    file,
    errors.join('; ').replaceAll(abs, file) || `${file}: cannot be uploaded`,
  );
}

/** The file's digests: from the cache while its size and time are unchanged, else hashed (and cached). */
async function digestsFor(
  ctx: UploadContext,
  file: string,
  abs: string,
  size: number,
  mtimeMs: number,
  signal: AbortSignal | undefined,
): Promise<Digests> {
  const { media, emit } = ctx;
  const cached = media.cachedDigests(abs, size, mtimeMs);
  if (cached) {
    emit({ type: 'hashed', file, sha256: cached.sha256, cached: true });
    return cached;
  }
  const d = await hashFile(abs, {
    signal,
    onProgress: (bytes) => emit({ type: 'hashing', file, bytes, total: size }),
  });
  const after = await statPath(abs);
  if (after.size !== size || after.mtimeMs !== mtimeMs) {
    throw new UploadError('changed', file, `${file}: the file changed while it was being hashed; try again`);
  }
  media.cacheDigests(abs, size, mtimeMs, d);
  emit({ type: 'hashed', file, sha256: d.sha256, cached: false });
  return d;
}

/** An upload a crash interrupted, driven on if its file is unchanged (and, for a run's upload, its token given). */
async function resumeOne(
  ctx: UploadContext,
  rec: UploadRecord,
  runTokens: ReadonlyMap<string, string> | undefined,
): Promise<UploadResult> {
  let run: RunTarget | undefined;
  if (rec.runId) {
    const token = runTokens?.get(rec.runId);
    if (!token) {
      throw new UploadError(
        'needs-token',
        rec.path,
        `${rec.path}: run ${rec.runId} upload needs its run token to resume`,
        rec.assetId,
      );
    }
    run = { runId: rec.runId, runToken: token };
  }
  const st = await statPath(rec.path).catch(() => null);
  if (!st || st.size !== rec.size || st.mtimeMs !== rec.mtimeMs) {
    ctx.media.setState(rec.id, 'failed', { error: 'file changed or missing' });
    throw new UploadError(
      'changed',
      rec.path,
      `${rec.path}: the file changed or disappeared since its upload started; upload it again`,
      rec.assetId,
    );
  }
  return driveUpload(ctx, rec.path, rec, run);
}
