import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import {
  DIRECT_UPLOAD_PLATFORMS as DIRECT_PLATFORMS,
  LIMITS,
  isDirectUploadPlatform as isDirect,
  uploadLimitFor,
  type BodyOf,
} from '../../../src-shared/api';
import { formatBytes } from '../../../src-shared/format-bytes';
import { errorText } from '../common/error-text';
import type { AgentOutput } from './agent-output';
import { errorFacts, hasCode, isTransient } from './ports';
import { RunDeferred, RunFailure, type RunContext } from './run-context';
import { inspectAll, type MediaItem } from './output-media';

/** What survives a restart mid-publish: uploaded assets and opened direct uploads. */
const Progress = z.object({
  assets: z.record(z.string(), z.object({ asset_id: z.string(), url: z.string().optional() })).default({}),
  direct: z
    .record(
      z.string(),
      z.object({
        id: z.string(),
        platform: z.enum(DIRECT_PLATFORMS),
        state: z.string(),
        uploaded: z.boolean(),
        upload_url: z.string(),
        upload_headers: z.record(z.string(), z.string()),
      }),
    )
    .default({}),
  fitted: z.string().optional(),
});
type Progress = z.infer<typeof Progress>;

function loadProgress(ctx: RunContext): Progress {
  try {
    return Progress.parse(ctx.row.progress ? JSON.parse(ctx.row.progress) : {});
  } catch (err) {
    // Uploads are idempotent by asset id: starting over costs bytes, not correctness.
    ctx.deps.logger.warn(`run ${ctx.localId}: unreadable upload progress, starting over: ${errorText(err)}`);
    return Progress.parse({});
  }
}

/** Reserve, PUT and complete one file as run media (run token), or as owner media for legacy runs. */
async function uploadOne(ctx: RunContext, item: MediaItem, progress: Progress, key: string): Promise<string> {
  const { api, media } = ctx.deps;
  const done = progress.assets[key];
  if (done?.url) return done.url;
  const limit = uploadLimitFor(item.contentType);
  if (item.bytes > limit)
    throw new RunFailure(
      'invalid_output',
      `media ${key} is ${item.bytes} bytes, over the ${item.contentType} limit of ${limit}`,
    );
  const assetId = done?.asset_id ?? randomUUID();
  progress.assets[key] = { asset_id: assetId };
  ctx.patch({ progress: JSON.stringify(progress) });
  const hashes = await media.hash(item.path);
  const body = {
    asset_id: assetId,
    content_type: item.contentType,
    content_length: item.bytes,
    content_sha256: hashes.sha256,
    content_md5: hashes.md5,
  };
  const legacy = ctx.row.queue === 'legacy';
  const runId = ctx.runId as string;
  const token = ctx.runToken;
  if (!legacy && !token) throw new RunFailure('upload_failed', 'no run token to upload run media with');
  const reservation = await ctx.retry(() =>
    legacy ? api.reserveMedia(body) : api.reserveRunMedia(runId, token as string, body),
  );
  let url = reservation.already_uploaded ? reservation.media?.public_url : undefined;
  if (!url) {
    if (!reservation.already_uploaded) {
      if (!reservation.upload_url)
        throw new RunFailure('upload_failed', `the reservation of ${key} has no upload_url`);
      const uploadUrl = reservation.upload_url;
      await putChecked(ctx, uploadUrl, reservation.upload_headers ?? {}, item);
    }
    const asset = await ctx.retry(() =>
      legacy
        ? api.completeMedia({ asset_id: reservation.asset_id })
        : api.completeRunMedia(runId, token as string, { asset_id: reservation.asset_id }),
    );
    url = asset.public_url;
  }
  progress.assets[key] = { asset_id: reservation.asset_id, url };
  ctx.patch({ progress: JSON.stringify(progress) });
  return url;
}

/**
 * PUTs a file, once more when the service saw different bytes than declared (a transfer cut short):
 * the address stays valid and the upload stays pending, so repeating it is safe.
 */
async function putChecked(
  ctx: RunContext,
  url: string,
  headers: Readonly<Record<string, string>>,
  item: MediaItem,
): Promise<void> {
  try {
    await ctx.retry(() => ctx.deps.media.put(url, headers, item.path, item.bytes));
  } catch (err) {
    if (!hasCode(err, 'UPLOAD_INTEGRITY_MISMATCH')) throw err;
    await ctx.log(`upload of ${item.path} was refused (${errorFacts(err).message}); sending it again`);
    await ctx.retry(() => ctx.deps.media.put(url, headers, item.path, item.bytes));
  }
}

async function pollDirectUpload(
  ctx: RunContext,
  id: string,
): Promise<{ state: string; error?: string | null }> {
  const { api, directUploadPollMs, directUploadTimeoutMs } = ctx.deps;
  const runId = ctx.runId as string;
  const token = ctx.runToken as string;
  const until = Date.now() + directUploadTimeoutMs;
  for (;;) {
    const { status } = await ctx.retry(() => api.directUploadStatus(runId, token, { direct_upload_id: id }));
    if (status.state === 'published' || status.state === 'failed') return status;
    if (Date.now() > until)
      return { state: status.state, error: `still ${status.state} after ${directUploadTimeoutMs} ms` };
    // Real time: the platform's processing is not ours to speed up.
    await delay(directUploadPollMs, undefined, { signal: ctx.abort.signal });
  }
}

function titleFor(ctx: RunContext, output: AgentOutput): string {
  const firstLine = output.caption.split('\n')[0]?.trim() ?? '';
  const title = output.title ?? (firstLine || ctx.automation.name || 'Untitled');
  return title.slice(0, LIMITS.directUploadTitle.max);
}

type Slide = { text?: string; url: string; aspect_ratio?: string };
type Published = { social_account_id: string; platform: 'tiktok' | 'youtube'; direct_upload_id: string };
type Items = Awaited<ReturnType<typeof inspectAll>>;

/** Uploads what the agent made, direct-uploads videos for auto-mode tiktok/youtube targets, completes. */
export async function publish(ctx: RunContext, output: AgentOutput): Promise<void> {
  const automation = ctx.automation;
  const legacy = ctx.row.queue === 'legacy';
  const auto = !legacy && automation.execution_mode === 'auto';
  const directTargets = auto ? automation.targets.filter((t) => isDirect(t.platform)) : [];
  const needsMediaUrls = !auto || automation.targets.some((t) => !isDirect(t.platform));
  const slidePaths = output.slides.flatMap((s) => (s.path ? [s.path] : []));
  const items = await inspectAll(ctx, [...output.media, ...slidePaths]);
  const progress = loadProgress(ctx);
  ctx.patch({ state: 'uploading' });

  const uploaded =
    needsMediaUrls && items.size > 0
      ? await uploadMedia(ctx, output, items, progress)
      : { mediaUrls: [], slides: givenSlides(output) };
  const published =
    directTargets.length > 0 ? await directUploads(ctx, output, items, progress, directTargets) : [];
  await complete(ctx, output, items, { ...uploaded, published, legacy, auto });
}

/** The slides the agent gave by URL, when nothing is uploaded. */
function givenSlides(output: AgentOutput): Slide[] {
  const slides: Slide[] = [];
  for (const s of output.slides)
    if (s.url) slides.push({ url: s.url, ...(s.text !== undefined ? { text: s.text } : {}) });
  return slides;
}

/** Step `upload`: every media file and slide the agent made, uploaded once (resumed from `progress`). */
async function uploadMedia(
  ctx: RunContext,
  output: AgentOutput,
  items: Items,
  progress: Progress,
): Promise<{ mediaUrls: string[]; slides: Slide[] }> {
  const mediaUrls: string[] = [];
  const slides: Slide[] = [];
  ctx.step('upload', 'started', `${items.size} file(s)`);
  try {
    for (const p of output.media)
      mediaUrls.push(await uploadOne(ctx, items.get(p) as MediaItem, progress, p));
    for (const s of output.slides) {
      const url =
        s.url ?? (await uploadOne(ctx, items.get(s.path as string) as MediaItem, progress, s.path as string));
      slides.push({
        url,
        ...(s.text !== undefined ? { text: s.text } : {}),
        ...(s.aspect_ratio ? { aspect_ratio: s.aspect_ratio } : {}),
      });
    }
  } catch (err) {
    if (err instanceof RunFailure) throw err;
    if (isTransient(err))
      throw new RunDeferred(`upload paused, the service is unreachable: ${errorFacts(err).message}`);
    ctx.step('upload', 'failed', errorFacts(err).message);
    throw new RunFailure('upload_failed', `upload failed: ${errorFacts(err).message}`);
  }
  ctx.step('upload', 'completed', `${mediaUrls.length + slides.length} file(s) uploaded`);
  return { mediaUrls, slides };
}

/** Step `direct-upload`: the agent's MP4, fitted to the limit once, to each auto-mode TikTok/YouTube target. */
async function directUploads(
  ctx: RunContext,
  output: AgentOutput,
  items: Items,
  progress: Progress,
  directTargets: RunContext['automation']['targets'],
): Promise<Published[]> {
  const { media } = ctx.deps;
  const published: Published[] = [];
  const video = output.media.map((p) => items.get(p) as MediaItem).find((m) => m.contentType === 'video/mp4');
  if (!video)
    throw new RunFailure(
      'invalid_output',
      `auto mode to ${directTargets.map((t) => t.platform).join(' and ')} needs an MP4 in "media"; the agent gave none`,
    );
  ctx.step('direct-upload', 'started', directTargets.map((t) => t.platform).join(', '));
  try {
    const file = await fittedVideo(ctx, video, progress);
    const facts = await media.inspect(file);
    const hashes = await media.hash(file);
    const title = titleFor(ctx, output);
    for (const t of directTargets) {
      const platform = t.platform as 'tiktok' | 'youtube';
      const body = {
        social_account_id: t.social_account_id,
        title,
        description: output.caption,
        content_type: 'video/mp4' as const,
        content_length: facts.bytes,
        content_sha256: hashes.sha256,
        content_md5: hashes.md5,
      };
      const entry = await directUploadOne(ctx, progress, platform, body, file);
      ctx.step('direct-upload', 'info', `${platform} published`);
      published.push({ social_account_id: t.social_account_id, platform, direct_upload_id: entry.id });
    }
  } catch (err) {
    if (!(err instanceof RunFailure) && !(err instanceof RunDeferred) && isTransient(err))
      throw new RunDeferred(`direct upload paused, the service is unreachable: ${errorFacts(err).message}`);
    if (err instanceof RunDeferred) throw err;
    const message = err instanceof RunFailure ? err.message : directUploadMessage(err);
    ctx.step('direct-upload', 'failed', message);
    if (err instanceof RunFailure) throw err;
    throw new RunFailure('direct_upload_failed', message);
  }
  ctx.step('direct-upload', 'completed', `${published.length} target(s)`);
  return published;
}

/** The video compressed to fit the direct upload limit, once: the file is kept in `progress` for a resumed run. */
async function fittedVideo(ctx: RunContext, video: MediaItem, progress: Progress): Promise<string> {
  if (progress.fitted) return progress.fitted;
  const { media } = ctx.deps;
  const file = await media.compressToFit(video.path, LIMITS.directUploadBytes, ctx.row.run_dir as string);
  if (file !== video.path) {
    const after = (await media.inspect(file)).bytes;
    ctx.step(
      'direct-upload',
      'info',
      `compressed ${formatBytes(video.bytes)} to ${formatBytes(after)} to fit the ${formatBytes(LIMITS.directUploadBytes)} direct upload limit`,
    );
  }
  progress.fitted = file;
  ctx.patch({ progress: JSON.stringify(progress) });
  return file;
}

/** One target's direct upload: opened, its bytes PUT and its state polled, each step kept in `progress`. */
async function directUploadOne(
  ctx: RunContext,
  progress: Progress,
  platform: 'tiktok' | 'youtube',
  body: BodyOf<'directUpload'>,
  file: string,
): Promise<DirectEntry> {
  const { media } = ctx.deps;
  let entry = progress.direct[body.social_account_id];
  if (!entry) {
    entry = await openDirectUpload(ctx, body, platform);
    progress.direct[body.social_account_id] = entry;
    ctx.patch({ progress: JSON.stringify(progress) });
  }
  if (!entry.uploaded) {
    const { upload_url: url, upload_headers: headers } = entry;
    try {
      await ctx.retry(() => media.put(url, headers, file, body.content_length));
    } catch (err) {
      // 409 on the PUT: the bytes of an earlier attempt whose answer was lost have arrived.
      if (errorFacts(err).status !== 409) throw err;
    }
    entry.uploaded = true;
    ctx.patch({ progress: JSON.stringify(progress) });
  }
  const status = await pollDirectUpload(ctx, entry.id);
  entry.state = status.state;
  ctx.patch({ progress: JSON.stringify(progress) });
  if (status.state !== 'published')
    throw new RunFailure(
      'direct_upload_failed',
      `direct upload to ${platform} ${status.state}: ${status.error ?? 'no reason given'}`,
    );
  return entry;
}

/** Step `complete`: tells the service what the run made (a legacy claim, or a local run in draft or auto mode). */
async function complete(
  ctx: RunContext,
  output: AgentOutput,
  items: Items,
  made: {
    mediaUrls: string[];
    slides: Slide[];
    published: Published[];
    legacy: boolean;
    auto: boolean;
  },
): Promise<void> {
  const { api, executorId } = ctx.deps;
  const { mediaUrls, slides, published, legacy, auto } = made;
  ctx.patch({ state: 'completing' });
  // Every step before this one reaches the service first; `complete` itself is recorded by the completion.
  await ctx.flush();
  ctx.step('complete', 'started');
  const first = output.media[0];
  const mediaType: 'image' | 'carousel' | 'video' | undefined =
    slides.length > 0 || output.media.length > 1
      ? 'carousel'
      : first === undefined
        ? undefined
        : items.get(first)?.contentType === 'video/mp4'
          ? 'video'
          : 'image';
  try {
    if (legacy) {
      await ctx.retry(() =>
        api.completeClaim(ctx.runId as string, {
          caption: output.caption,
          ...(output.title ? { title: output.title } : {}),
          ...(mediaType ? { media_type: mediaType } : {}),
          ...(mediaUrls.length ? { media_urls: mediaUrls } : {}),
          ...(slides.length ? { slides } : {}),
          ...(output.metadata ? { metadata: output.metadata } : {}),
          executor_id: executorId,
          claim_token: ctx.row.claim_token as string,
        }),
      );
    } else {
      const body = !auto
        ? {
            caption: output.caption,
            ...(mediaUrls.length ? { media_urls: mediaUrls } : {}),
            ...(slides.length ? { slides } : {}),
          }
        : {
            caption: output.caption,
            ...(output.title ? { title: output.title } : {}),
            ...(mediaType ? { media_type: mediaType } : {}),
            ...(mediaUrls.length ? { media_urls: mediaUrls } : {}),
            ...(slides.length ? { slides } : {}),
            ...(published.length ? { published_targets: published } : {}),
            ...(output.metadata ? { metadata: output.metadata } : {}),
            executor_id: executorId,
          };
      await ctx.retry(() => api.completeLocal(ctx.runId as string, body, ctx.runToken));
    }
  } catch (err) {
    await completionConflict(ctx, err);
    return;
  }
  ctx.endedOnService();
  ctx.step('complete', 'completed');
}

type DirectEntry = Progress['direct'][string];

/**
 * Opens a direct upload. The call is not idempotent: when its answer was lost, the retry meets
 * DIRECT_UPLOAD_CONFLICT naming the upload that was opened; one whose bytes arrived is carried on.
 */
async function openDirectUpload(
  ctx: RunContext,
  body: BodyOf<'directUpload'>,
  platform: 'tiktok' | 'youtube',
): Promise<DirectEntry> {
  const runId = ctx.runId as string;
  const token = ctx.runToken as string;
  const open = async (): Promise<DirectEntry> => {
    const { session } = await ctx.retry(
      () => ctx.deps.api.directUpload(runId, token, body, { youtube: platform === 'youtube' }),
      { answeredOnly: true },
    );
    return {
      id: session.id,
      platform,
      state: session.state,
      uploaded: false,
      upload_url: session.upload_url,
      upload_headers: session.upload_headers,
    };
  };
  try {
    return await open();
  } catch (err) {
    const lost = isTransient(err);
    if (!lost && !hasCode(err, 'DIRECT_UPLOAD_CONFLICT')) throw err;
    let retried: unknown = err;
    if (lost) {
      try {
        return await open();
      } catch (again) {
        retried = again;
        if (!hasCode(again, 'DIRECT_UPLOAD_CONFLICT')) throw again;
      }
    }
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(
      errorFacts(retried).message,
    )?.[0];
    if (!id) throw retried;
    const { status } = await ctx.retry(() =>
      ctx.deps.api.directUploadStatus(runId, token, { direct_upload_id: id }),
    );
    if (status.state === 'awaiting_upload')
      throw new RunFailure(
        'direct_upload_failed',
        `a direct upload to ${platform} was opened but its upload address was lost; it expires in 10 minutes`,
      );
    return { id, platform, state: status.state, uploaded: true, upload_url: '', upload_headers: {} };
  }
}

function directUploadMessage(err: unknown): string {
  const f = errorFacts(err);
  if (f.code === 'SOCIAL_TOKEN_EXPIRED')
    return 'direct upload refused: the social account must be reconnected (SOCIAL_TOKEN_EXPIRED)';
  if (f.code === 'YOUTUBE_PARENT_RUNNER_REQUIRED')
    return 'direct upload refused: YouTube needs the runner key header';
  return `direct upload failed: ${f.message}`;
}

/**
 * A failed completion call, read by its meaning. A lost answer retried into RUN_CONFLICT means the
 * first call won: success if the service says the run is completed.
 */
async function completionConflict(ctx: RunContext, err: unknown): Promise<void> {
  const f = errorFacts(err);
  // No answer: the completion may or may not have landed; a later pass asks again (RUN_CONFLICT = it did).
  if (isTransient(err))
    throw new RunDeferred(`completion not confirmed, the service is unreachable: ${f.message}`);
  if (hasCode(err, 'RUN_CONFLICT', 'RUN_NOT_ACTIVE', 'CLAIM_CONFLICT') || f.status === 409) {
    const { run } = await ctx
      .retry(() => ctx.deps.api.getRun(ctx.runId as string, ctx.deps.executorId))
      .catch((lookup: unknown) => {
        ctx.deps.logger.warn(
          `run ${ctx.runId}: could not look the run up after a refused completion: ${errorText(lookup)}`,
        );
        return { run: undefined };
      });
    if (run?.state === 'completed') {
      ctx.endedOnService();
      ctx.step('complete', 'completed', 'the service had already recorded the completion');
      return;
    }
    if (hasCode(err, 'AUTOMATION_PAUSED', 'AUTOMATION_REMOVED', 'REVISION_STALE')) {
      ctx.deps.requestSync();
      const code =
        f.code === 'AUTOMATION_PAUSED'
          ? 'automation_paused'
          : f.code === 'AUTOMATION_REMOVED'
            ? 'automation_removed'
            : 'revision_stale';
      const why =
        code === 'automation_paused'
          ? 'the automation was paused while the run was in progress'
          : code === 'automation_removed'
            ? 'the automation was removed while the run was in progress'
            : 'the automation was edited while the run was in progress (stale revision)';
      throw new RunFailure(
        code,
        `not published: ${why} (${f.code})`,
        run !== undefined && run.state !== 'running' && run.state !== 'claimed',
      );
    }
    if (run && run.state !== 'running' && run.state !== 'claimed')
      throw new RunFailure(
        'complete_failed',
        `the service already ended this run as ${run.state}${run.error ? `: ${run.error}` : ''}`,
        true,
      );
    if (hasCode(err, 'CLAIM_CONFLICT'))
      throw new RunFailure('lease_lost', 'the claim was lost before completion (CLAIM_CONFLICT)', true);
  }
  if (f.code === 'INVALID_RUN_OUTPUT' || f.status === 400)
    throw new RunFailure('invalid_output', `the service rejected the output: ${f.message}`);
  throw new RunFailure('complete_failed', `completion failed: ${f.message}`);
}
