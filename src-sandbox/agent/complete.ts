import type {
  CompleteLocalRequest,
  CreatePostResponse,
  LegacyCompleteRequest,
  MediaRef,
  Run,
  Target,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import { createRunPost } from '../posts/create';
import type { Caller } from './credentials';
import type { AutomationRow, RunRow } from './records';
import { automationTargets } from './records';
import { requireClaim, runWithEvents } from './runs';
import { findDirectUpload, requireAutomation, requireRun } from './store';

const DIRECT_PLATFORMS = new Set(['tiktok', 'youtube']);
const TERMINAL_STATES = new Set(['completed', 'failed', 'skipped']);

const invalidOutput = (message: string): SandboxError => new SandboxError(400, 'INVALID_RUN_OUTPUT', message);

function checkNotFinished(run: RunRow): void {
  if (TERMINAL_STATES.has(run.state)) {
    throw new SandboxError(409, 'RUN_CONFLICT', `run ${run.id} is already ${run.state}`);
  }
}

/** The automation must still be live and at the run's revision for its output to be published. */
function checkAutomationLive(automation: AutomationRow, run: RunRow): void {
  if (automation.status === 'removed') {
    throw new SandboxError(409, 'AUTOMATION_REMOVED', `automation ${automation.id} has been removed`);
  }
  if (automation.status === 'paused') {
    throw new SandboxError(409, 'AUTOMATION_PAUSED', `automation ${automation.id} is paused`);
  }
  if (automation.revision !== run.revision) {
    throw new SandboxError(
      409,
      'REVISION_STALE',
      `run ${run.id} was started at revision ${run.revision}; automation ${automation.id} is now at revision ${automation.revision}`,
    );
  }
}

type Output = Omit<CompleteLocalRequest, 'published_targets'>;

/**
 * The post's media. The contract caps media_urls and slides at 10 each; a carousel's slides are its media, so
 * when slides are present they are what the post carries, otherwise the media URLs.
 */
function mediaOf(output: Output): MediaRef[] {
  if (output.slides !== undefined && output.slides.length > 0)
    return output.slides.map((s) => ({ url: s.url }));
  return (output.media_urls ?? []).map((url) => ({ url }));
}

/** Creates the run's post through the posts service; its 400s are the run output's fault. */
function postFor(
  ctx: SandboxContext,
  run: RunRow,
  output: Output,
  targets: Target[],
  draft: boolean,
  published: readonly PublishedRecord[],
): CreatePostResponse {
  const body = {
    caption: output.caption,
    media: mediaOf(output),
    targets,
    ...(output.title !== undefined ? { title: output.title } : {}),
    ...(draft ? { action: 'draft' as const } : {}),
  };
  try {
    return createRunPost(ctx, run.owner_id, body, {
      allowYoutube: draft,
      runId: run.id,
      published: published.map((p) => ({
        target: { social_account_id: p.social_account_id, platform: p.platform },
        directUploadId: p.direct_upload_id,
        platformPostId: p.platform_post_id ?? p.direct_upload_id,
        publishedAt: p.published_at,
      })),
    });
  } catch (err) {
    if (err instanceof SandboxError && err.status === 400) {
      const detail = err.issues
        ? Object.entries(err.issues)
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join('; ')
        : err.message;
      throw invalidOutput(`the run output cannot be posted: ${detail}`);
    }
    throw err;
  }
}

interface PublishedRecord {
  social_account_id: string;
  platform: Target['platform'];
  direct_upload_id: string;
  platform_post_id: string | null;
  published_at: string;
}

/** Auto mode: each tiktok/youtube target needs a published direct upload of this very run. */
function checkPublishedTargets(
  ctx: SandboxContext,
  run: RunRow,
  targets: Target[],
  published: NonNullable<CompleteLocalRequest['published_targets']>,
): PublishedRecord[] {
  const records: PublishedRecord[] = [];
  for (const entry of published) {
    if (
      !targets.some((t) => t.social_account_id === entry.social_account_id && t.platform === entry.platform)
    ) {
      throw invalidOutput(
        `published_targets: ${entry.platform} account ${entry.social_account_id} is not a target of this automation`,
      );
    }
  }
  for (const target of targets.filter((t) => DIRECT_PLATFORMS.has(t.platform))) {
    const entry = published.find(
      (p) => p.social_account_id === target.social_account_id && p.platform === target.platform,
    );
    if (!entry) {
      throw invalidOutput(
        `published_targets: the ${target.platform} target ${target.social_account_id} needs an entry from a direct upload`,
      );
    }
    const upload = findDirectUpload(ctx, run.id, entry.direct_upload_id);
    if (!upload || upload.social_account_id !== target.social_account_id) {
      throw invalidOutput(
        `published_targets: direct upload ${entry.direct_upload_id} is not this run's upload to account ${target.social_account_id}`,
      );
    }
    if (upload.state !== 'published') {
      throw invalidOutput(
        `published_targets: direct upload ${upload.id} is ${upload.state}, not published; poll its status first`,
      );
    }
    records.push({
      ...entry,
      platform_post_id: upload.platform_post_id,
      published_at: upload.published_at ?? ctx.clock.now().toISOString(),
    });
  }
  return records;
}

function finish(ctx: SandboxContext, run: RunRow, output: unknown, result: unknown): void {
  const now = ctx.clock.now().toISOString();
  stmt(
    ctx.db,
    `UPDATE agent_runs SET state = 'completed', finished_at = ?, output = ?, result = ?, claim_token_hash = NULL,
       lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
  ).run(now, JSON.stringify(output), JSON.stringify(result), now, run.id);
}

export interface CompleteResult {
  run: Run;
  post: CreatePostResponse['post'] | null;
  social_posts: CreatePostResponse['social_posts'];
  published_targets: Omit<PublishedRecord, 'published_at'>[];
}

/**
 * Posts and closes the run in one transaction: either both happen or neither does. The post holds a
 * delivery per target: those the service publishes (or drafts) now, and those the run already published
 * by direct upload, recorded as `posted` and linked to their upload.
 */
function publishAndFinish(
  ctx: SandboxContext,
  run: RunRow,
  automation: AutomationRow,
  output: Output,
  published: PublishedRecord[],
  postTargets: Target[],
  draft: boolean,
): CompleteResult {
  const created =
    postTargets.length + published.length > 0
      ? postFor(ctx, run, output, postTargets, draft, published)
      : null;
  const answered = published.map(({ published_at: _at, ...p }) => p);
  const result = {
    mode: automation.execution_mode,
    post_id: created?.post.id ?? null,
    social_post_ids: created?.social_posts.map((d) => d.id) ?? [],
    published_targets: answered,
  };
  finish(ctx, run, output, result);
  return {
    run: runWithEvents(ctx, requireRun(ctx, run.owner_id, run.id)),
    post: created?.post ?? null,
    social_posts: created?.social_posts ?? [],
    published_targets: answered,
  };
}

/**
 * complete-local. Draft mode: only caption and media; drafts are created for every target. Auto mode:
 * tiktok/youtube targets must come with published direct uploads of this run; the other targets are
 * published now through the posts service. The run state does not change on a 4xx.
 */
export function completeLocal(
  ctx: SandboxContext,
  caller: Caller,
  runId: string,
  body: Readonly<CompleteLocalRequest>,
): CompleteResult {
  return ctx.db.transaction(() => completeLocalNow(ctx, caller, runId, body))();
}

function completeLocalNow(
  ctx: SandboxContext,
  caller: Caller,
  runId: string,
  body: Readonly<CompleteLocalRequest>,
): CompleteResult {
  const run = requireRun(ctx, caller.ownerId, runId);
  if (caller.kind === 'apiKey' && body.executor_id !== undefined && body.executor_id !== run.executor_id) {
    throw new SandboxError(403, 'EXECUTOR_MISMATCH', `run ${run.id} belongs to another executor`);
  }
  checkNotFinished(run);
  if (run.queue === 'legacy') {
    throw new SandboxError(
      409,
      'WRONG_EXECUTION_MODE',
      `run ${run.id} is a legacy-queue run; complete it with POST /api/agent/runs/${run.id}/complete`,
    );
  }
  const automation = requireAutomation(ctx, caller.ownerId, run.automation_id);
  checkAutomationLive(automation, run);
  const { published_targets: publishedTargets, ...output } = body;
  const targets = automationTargets(automation);
  if (automation.execution_mode === 'draft') {
    if (publishedTargets !== undefined && publishedTargets.length > 0) {
      throw invalidOutput('published_targets: draft mode accepts only caption and media');
    }
    mediaOf(output);
    return publishAndFinish(ctx, run, automation, output, [], targets, true);
  }
  mediaOf(output);
  const published = checkPublishedTargets(ctx, run, targets, publishedTargets ?? []);
  const others = targets.filter((t) => !DIRECT_PLATFORMS.has(t.platform));
  return publishAndFinish(ctx, run, automation, output, published, others, false);
}

/** Legacy complete: the claim holder posts the output to the automation's instagram targets. */
export function completeClaim(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  body: Readonly<LegacyCompleteRequest>,
): CompleteResult {
  return ctx.db.transaction(() => completeClaimNow(ctx, ownerId, runId, body))();
}

function completeClaimNow(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  body: Readonly<LegacyCompleteRequest>,
): CompleteResult {
  const run = requireRun(ctx, ownerId, runId);
  if (run.queue !== 'legacy') {
    throw new SandboxError(
      409,
      'WRONG_EXECUTION_MODE',
      `run ${run.id} is a local run; complete it with POST /api/agent/runs/${run.id}/complete-local`,
    );
  }
  checkNotFinished(run);
  requireClaim(run, body.claim_token);
  const automation = requireAutomation(ctx, ownerId, run.automation_id);
  checkAutomationLive(automation, run);
  const { claim_token: _claimToken, ...output } = body;
  const draft = automation.execution_mode === 'draft';
  return publishAndFinish(ctx, run, automation, output, [], automationTargets(automation), draft);
}
