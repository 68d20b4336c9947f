import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DirectUploadRequest, DirectUploadSession } from '../../src-shared/api';
import { LIMITS } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import { isOwnersApiKey } from './credentials';
import { DIRECT_UPLOAD_PROCESSING_MS, PLATFORM_POST_ID_SQL, runDueWork } from './due-work';
import type { DirectUploadRow } from './records';
import { automationTargets, directUploadStatusJson } from './records';
import { isActive } from './runs';
import { findDirectUpload, metaValue, requireAutomation, requireRun } from './store';
import {
  createPrivateWriteStream,
  ensurePrivateDir,
  removePath,
  renamePath,
} from '../../src-main/core/files';

export const DIRECT_UPLOAD_ROUTE = '/_direct-uploads';

interface AccountRow {
  id: string;
  platform: string;
  token_expired: number;
}

const signingKey = (ctx: SandboxContext): string =>
  metaValue(ctx, 'direct_upload_secret', () => randomBytes(32).toString('hex'));

const signatureOf = (ctx: SandboxContext, id: string, expires: string): string =>
  createHmac('sha256', signingKey(ctx)).update(`${id}\n${expires}`).digest('hex');

function uploadUrl(ctx: SandboxContext, row: DirectUploadRow): string {
  const expires = String(new Date(row.expires_at).getTime());
  const query = new URLSearchParams({ expires, signature: signatureOf(ctx, row.id, expires) });
  return `${ctx.publicBaseUrl()}${DIRECT_UPLOAD_ROUTE}/${row.id}?${query.toString()}`;
}

function sessionOf(ctx: SandboxContext, row: DirectUploadRow): DirectUploadSession {
  return {
    ...directUploadStatusJson(row),
    id: row.id,
    platform: row.platform,
    upload_url: uploadUrl(ctx, row),
    upload_method: 'PUT',
    upload_headers: { 'content-type': 'video/mp4', 'content-length': String(row.content_length) },
    expires_at: row.expires_at,
    state: row.state,
  };
}

/**
 * Opens a direct upload for a run (run token already checked). The account must be a tiktok or
 * youtube target of the run's automation; YouTube also needs the parent runner's API key in
 * `x-service-runner-key`. One live upload (awaiting bytes, processing or published) per run and
 * account: a second answers 409 DIRECT_UPLOAD_CONFLICT.
 */
export function openDirectUpload(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  body: Readonly<DirectUploadRequest>,
  runnerKey: string | undefined,
): DirectUploadSession {
  runDueWork(ctx);
  return ctx.db.transaction((): DirectUploadSession => {
    const run = requireRun(ctx, ownerId, runId);
    if (!isActive(run))
      throw new SandboxError(409, 'RUN_NOT_ACTIVE', `run ${run.id} is ${run.state}, not active`);
    const account = stmt(
      ctx.db,
      'SELECT id, platform, token_expired FROM accounts WHERE id = ? AND owner_id = ?',
    ).get(body.social_account_id, ownerId) as AccountRow | undefined;
    if (!account) throw new SandboxError(404, 'NOT_FOUND', `account ${body.social_account_id} not found`);
    if (account.platform !== 'tiktok' && account.platform !== 'youtube') {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `social_account_id: direct upload is for tiktok and youtube accounts; ${account.id} is ${account.platform}`,
      );
    }
    const automation = requireAutomation(ctx, ownerId, run.automation_id);
    if (!automationTargets(automation).some((t) => t.social_account_id === account.id)) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `social_account_id: account ${account.id} is not a target of automation ${automation.id}`,
      );
    }
    if (
      account.platform === 'youtube' &&
      (runnerKey === undefined || !isOwnersApiKey(ctx, ownerId, runnerKey))
    ) {
      throw new SandboxError(
        403,
        'YOUTUBE_PARENT_RUNNER_REQUIRED',
        'a YouTube direct upload needs the header x-service-runner-key with an API key of the same owner',
      );
    }
    if (account.token_expired) {
      throw new SandboxError(
        401,
        'SOCIAL_TOKEN_EXPIRED',
        `the ${account.platform} account ${account.id} must be reconnected: its credential expired`,
      );
    }
    const live = stmt(
      ctx.db,
      `SELECT id, state FROM agent_direct_uploads WHERE run_id = ? AND social_account_id = ? AND state <> 'failed'`,
    ).get(run.id, account.id) as { id: string; state: string } | undefined;
    if (live) {
      throw new SandboxError(
        409,
        'DIRECT_UPLOAD_CONFLICT',
        `run ${run.id} already has direct upload ${live.id} (${live.state}) to account ${account.id}`,
      );
    }
    const id = ctx.uuid();
    const now = ctx.clock.now();
    stmt(
      ctx.db,
      `INSERT INTO agent_direct_uploads (id, owner_id, run_id, social_account_id, platform, title, description,
         content_length, content_sha256, content_md5, state, expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'awaiting_upload', ?, ?, ?)`,
    ).run(
      id,
      ownerId,
      run.id,
      account.id,
      account.platform,
      body.title,
      body.description ?? null,
      body.content_length,
      body.content_sha256,
      body.content_md5 ?? null,
      new Date(now.getTime() + LIMITS.presignedUploadMs).toISOString(),
      now.toISOString(),
      now.toISOString(),
    );
    return sessionOf(
      ctx,
      stmt(ctx.db, 'SELECT * FROM agent_direct_uploads WHERE id = ?').get(id) as DirectUploadRow,
    );
  })();
}

/**
 * Status of one of the run's direct uploads. `processing` lasts until the sandbox clock passes
 * DIRECT_UPLOAD_PROCESSING_MS after the bytes arrived, or until the next status read, whichever
 * comes first, so a poller on a frozen virtual clock still sees it published.
 */
export function directUploadStatus(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
  directUploadId: string,
): ReturnType<typeof directUploadStatusJson> {
  runDueWork(ctx);
  const run = requireRun(ctx, ownerId, runId);
  const row = findDirectUpload(ctx, run.id, directUploadId);
  if (!row) {
    throw new SandboxError(
      404,
      'DIRECT_UPLOAD_NOT_FOUND',
      `direct upload ${directUploadId} not found for this run`,
    );
  }
  if (row.state === 'processing') {
    const now = ctx.clock.now().toISOString();
    if (row.status_reads >= 1) {
      stmt(
        ctx.db,
        `UPDATE agent_direct_uploads SET state = 'published', published_at = ?, updated_at = ?,
           platform_post_id = ${PLATFORM_POST_ID_SQL} WHERE id = ?`,
      ).run(now, now, row.id);
    } else {
      stmt(ctx.db, 'UPDATE agent_direct_uploads SET status_reads = status_reads + 1 WHERE id = ?').run(
        row.id,
      );
    }
  }
  return directUploadStatusJson(findDirectUpload(ctx, run.id, directUploadId) as DirectUploadRow);
}

const MP4_BRAND = Buffer.from('ftyp', 'ascii');
/** Uploads currently streaming: a second PUT to the same address waits for nothing, it conflicts. */
const receiving = new Set<string>();

function checkSignature(ctx: SandboxContext, id: string, expires: string, signature: string): boolean {
  const expected = Buffer.from(signatureOf(ctx, id, expires), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The PUT to the signed upload address: streams to disk while hashing, then checks length, sha256,
 * md5 (when it was declared) and the MP4 `ftyp` box. On success the upload moves to `processing`.
 */
export async function receiveDirectUpload(
  ctx: SandboxContext,
  id: string,
  query: { expires?: string | undefined; signature?: string | undefined },
  declaredLength: string | undefined,
  body: Readable,
): Promise<ReturnType<typeof directUploadStatusJson>> {
  const { expires, signature } = query;
  if (expires === undefined || signature === undefined || !checkSignature(ctx, id, expires, signature)) {
    throw new SandboxError(
      403,
      'UPLOAD_URL_INVALID',
      'the upload address is not valid (bad or missing signature)',
    );
  }
  if (Number(expires) <= ctx.clock.nowMs()) {
    throw new SandboxError(
      403,
      'UPLOAD_URL_EXPIRED',
      'the upload address has expired; open a new direct upload',
    );
  }
  const row = stmt(ctx.db, 'SELECT * FROM agent_direct_uploads WHERE id = ?').get(id) as
    DirectUploadRow | undefined;
  if (!row) throw new SandboxError(404, 'DIRECT_UPLOAD_NOT_FOUND', `direct upload ${id} not found`);
  if (row.state !== 'awaiting_upload' || receiving.has(id)) {
    throw new SandboxError(
      409,
      'DIRECT_UPLOAD_CONFLICT',
      `direct upload ${id} is ${row.state}; its bytes arrived already`,
    );
  }
  if (declaredLength !== undefined && Number(declaredLength) !== row.content_length) {
    throw new SandboxError(
      400,
      'UPLOAD_INTEGRITY_MISMATCH',
      `Content-Length ${declaredLength} differs from the declared content_length ${row.content_length}`,
    );
  }
  receiving.add(id);
  const dir = join(ctx.objectsDir, 'direct-uploads');
  const partPath = join(dir, `${id}.part`);
  const finalPath = join(dir, `${id}.mp4`);
  try {
    await ensurePrivateDir(dir);
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    let length = 0;
    let head = Buffer.alloc(0);
    async function* measure(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of source) {
        length += chunk.length;
        if (length > row!.content_length) {
          throw new SandboxError(
            400,
            'UPLOAD_INTEGRITY_MISMATCH',
            `the body is longer than the declared content_length ${row!.content_length}`,
          );
        }
        if (head.length < 12) head = Buffer.concat([head, chunk.subarray(0, 12 - head.length)]);
        sha256.update(chunk);
        md5.update(chunk);
        yield chunk;
      }
    }
    await pipeline(body, measure, createPrivateWriteStream(partPath));
    const problems: string[] = [];
    if (length !== row.content_length)
      problems.push(`length ${length} is not the declared ${row.content_length}`);
    if (sha256.digest('hex') !== row.content_sha256) problems.push('sha256 does not match content_sha256');
    const md5Hex = md5.digest('hex');
    if (row.content_md5 !== null && md5Hex !== row.content_md5)
      problems.push('md5 does not match content_md5');
    if (problems.length > 0) {
      throw new SandboxError(400, 'UPLOAD_INTEGRITY_MISMATCH', `upload rejected: ${problems.join('; ')}`);
    }
    if (!head.subarray(4, 8).equals(MP4_BRAND)) {
      throw new SandboxError(400, 'UPLOAD_INTEGRITY_MISMATCH', 'the body is not an MP4 file (no ftyp box)');
    }
    await renamePath(partPath, finalPath);
    const now = ctx.clock.now();
    stmt(
      ctx.db,
      `UPDATE agent_direct_uploads SET state = 'processing', received_at = ?, processing_until = ?, object_path = ?,
         updated_at = ? WHERE id = ? AND state = 'awaiting_upload'`,
    ).run(
      now.toISOString(),
      new Date(now.getTime() + DIRECT_UPLOAD_PROCESSING_MS).toISOString(),
      finalPath,
      now.toISOString(),
      id,
    );
    return directUploadStatusJson(
      stmt(ctx.db, 'SELECT * FROM agent_direct_uploads WHERE id = ?').get(id) as DirectUploadRow,
    );
  } catch (err) {
    await removePath(partPath);
    throw err;
  } finally {
    receiving.delete(id);
  }
}
