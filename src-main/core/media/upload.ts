import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { LIMITS } from '../../../src-shared/api/limits';
import type { MediaAsset, MediaReservationResponse } from '../../../src-shared/api/media';
import { ApiError } from '../api/errors';
import { errorText } from '../common/error-text';
import { createLimit } from '../common/limit';
import { retry } from '../common/retry';
import type { Store } from '../store/store';
import { checkFile, cliHint } from './check';
import type { CheckOptions } from './check';
import { hashFile } from './hash';
import type { Digests } from './hash';
import { openMediaStore } from './media-store';
import type { MediaStore, UploadRecord } from './media-store';
import { putFile } from './put';
import { UploadError } from './upload-errors';
import { reserveError, shortBody } from './upload-answers';
import type {
  MediaApi,
  RunTarget,
  UploadEvent,
  UploadOutcome,
  UploadResult,
  BeforePutContext,
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

const PUT_ATTEMPTS = 4;
const READDRESS_LIMIT = 3;
// Answers from a presigned PUT meaning "this address no longer takes these bytes": expired, revoked or refused.
const READDRESS_STATUSES = new Set([400, 403, 410]);

// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the fixed buffers, the store's upload records and the limit of uploads in flight); each method is short and named
export function createUploader(opts: UploaderOptions): Uploader {
  const { api } = opts;
  const media = openMediaStore(opts.store);
  const base = opts.scope ?? api.baseUrl;
  const scopeOf = (run: RunTarget | undefined): string => (run ? `${base}#run:${run.runId}` : base);
  const concurrency = Math.min(Math.max(1, opts.concurrency ?? 3), LIMITS.mediaPendingUploads);
  const slot = createLimit(concurrency);
  const emit = (e: UploadEvent): void => opts.onEvent?.(e);
  // Two files with the same bytes share one asset: the second waits for the first instead of racing it.
  const inFlight = new Map<string, Promise<UploadResult>>();

  async function digestsFor(file: string, abs: string, size: number, mtimeMs: number): Promise<Digests> {
    const cached = media.cachedDigests(abs, size, mtimeMs);
    if (cached) {
      emit({ type: 'hashed', file, sha256: cached.sha256, cached: true });
      return cached;
    }
    const d = await hashFile(abs, {
      signal: opts.signal,
      onProgress: (bytes) => emit({ type: 'hashing', file, bytes, total: size }),
    });
    const after = await statPath(abs);
    if (after.size !== size || after.mtimeMs !== mtimeMs) {
      throw new UploadError(
        'changed',
        file,
        `${file}: the file changed while it was being hashed; try again`,
      );
    }
    media.cacheDigests(abs, size, mtimeMs, d);
    emit({ type: 'hashed', file, sha256: d.sha256, cached: false });
    return d;
  }

  async function reserve(
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
        ? await api.reserveRunMedia(run.runId, run.runToken, body, { signal: opts.signal })
        : await api.reserveMedia(body, { signal: opts.signal });
    } catch (err) {
      const e = reserveError(file, rec, err);
      if (e.kind === 'conflict') media.setState(rec.id, 'failed', { error: e.message });
      throw e;
    }
  }

  async function complete(rec: UploadRecord, run: RunTarget | undefined): Promise<MediaAsset> {
    const body = { asset_id: rec.assetId };
    return run
      ? api.completeRunMedia(run.runId, run.runToken, body, { signal: opts.signal })
      : api.completeMedia(body, { signal: opts.signal });
  }

  /** PUTs the bytes; true when stored, false when the address must be renewed. */
  async function put(file: string, rec: UploadRecord, res: MediaReservationResponse): Promise<boolean> {
    const url = res.upload_url;
    if (!url) {
      throw new UploadError(
        'service',
        file,
        `${file}: the reservation carries no upload address`,
        rec.assetId,
      );
    }
    await opts.beforePut?.({
      file,
      assetId: rec.assetId,
      uploadUrl: url,
      expiresAt: res.expires_at ?? null,
    });
    media.setState(rec.id, 'uploading');
    // A 5xx from the address, or a connection lost mid-way: the same bytes go again to the same address.
    const transient = new WeakSet<UploadError>();
    const once = async (): Promise<boolean> => {
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
          dispatcher: api.dispatcher,
          signal: opts.signal,
          maxBytesPerSecond: opts.maxBytesPerSecond,
          onProgress: (sent) => emit({ type: 'progress', file, assetId: rec.assetId, sent, total: rec.size }),
        });
      } catch (err) {
        if (opts.signal?.aborted)
          throw new UploadError('aborted', file, `${file}: upload cancelled`, rec.assetId);
        const e = new UploadError(
          'network',
          file,
          `${file}: the upload failed: ${errorText(err)}`,
          rec.assetId,
        );
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
    };
    return retry(once, {
      attempts: PUT_ATTEMPTS,
      minDelayMs: 250,
      maxDelayMs: 2_000,
      signal: opts.signal,
      shouldRetry: (e) => e instanceof UploadError && transient.has(e),
      onRetry: () =>
        emit({
          type: 'retry',
          file,
          assetId: rec.assetId,
          reason: 'the upload was interrupted; sending it again',
        }),
    }).catch((err: unknown) => {
      // Cancelled while waiting to try again: the same answer as a cancel during the PUT.
      if (opts.signal?.aborted && !(err instanceof UploadError))
        throw new UploadError('aborted', file, `${file}: upload cancelled`, rec.assetId);
      throw err;
    });
  }

  function finish(
    file: string,
    rec: UploadRecord,
    asset: MediaAsset,
    alreadyUploaded: boolean,
  ): UploadResult {
    media.complete(rec.id, asset.public_url, JSON.stringify(asset));
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
    emit({ type: 'completed', file, result });
    return result;
  }

  /** Moves one persisted upload forward from whatever state it is in until the asset exists. */
  async function drive(file: string, start: UploadRecord, run: RunTarget | undefined): Promise<UploadResult> {
    let rec = start;
    let readdressed = 0;
    let stateNow = rec.state;
    for (;;) {
      if (stateNow === 'uploaded') {
        try {
          return finish(file, rec, await complete(rec, run), false);
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
      const res = await reserve(file, rec, run);
      if (res.asset_id !== rec.assetId) {
        // The service matched these bytes to an asset it already has under another id: adopt that id.
        media.adoptAsset(rec.id, res.asset_id);
        rec = { ...rec, assetId: res.asset_id };
      }
      media.setState(rec.id, 'reserved');
      emit({ type: 'reserved', file, assetId: rec.assetId, alreadyUploaded: res.already_uploaded });
      if (res.already_uploaded) {
        let asset = res.media ?? null;
        if (!asset) {
          try {
            asset = await complete(rec, run);
          } catch (err) {
            throw reserveError(file, rec, err);
          }
        }
        return finish(file, rec, asset, true);
      }
      if (await put(file, rec, res)) {
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

  async function uploadOne(file: string, run: RunTarget | undefined): Promise<UploadResult> {
    const abs = resolve(file);
    const check = await checkFile(abs, {
      probe: opts.probe ?? 'video',
      tools: opts.tools,
      signal: opts.signal,
    });
    if (!check.ok || !check.contentType) {
      const errors = check.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.message}${cliHint(p, abs)}`);
      throw new UploadError(
        'check',
        file,
        errors.join('; ').replaceAll(abs, file) || `${file}: cannot be uploaded`,
      );
    }
    const st = await statPath(abs);
    const digests = await digestsFor(file, abs, st.size, st.mtimeMs);
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
      if (rec && rec.contentType === check.contentType) {
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
          contentType: check.contentType as NonNullable<typeof check.contentType>,
        });
      }
      // A completed record still reserves: the service confirms it has the asset (already_uploaded) in one call.
      return drive(file, rec.state === 'completed' ? { ...rec, state: 'reserving' } : rec, run);
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
            ? new UploadError('aborted', file, `${file}: upload cancelled`)
            : new UploadError('service', file, `${file}: ${errorText(err)}`);
      emit({ type: 'failed', file, error });
      return { file, ok: false, error };
    }
  };

  const uploader: Uploader = {
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
        jobs.map((rec) =>
          slot(() =>
            settle(rec.path, async () => {
              let run: RunTarget | undefined;
              if (rec.runId) {
                const token = o?.runTokens?.get(rec.runId);
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
                media.setState(rec.id, 'failed', { error: 'file changed or missing' });
                throw new UploadError(
                  'changed',
                  rec.path,
                  `${rec.path}: the file changed or disappeared since its upload started; upload it again`,
                  rec.assetId,
                );
              }
              return drive(rec.path, rec, run);
            }),
          ),
        ),
      );
    },
  };
  return uploader;
}
