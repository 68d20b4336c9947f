import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StartRunResponse } from '../../src-shared/api';
import { mediaFixtures } from '../helpers/media-fixtures';
import type { TestSandbox } from '../helpers/sandbox';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/** Run media uploads, direct uploads (tiktok, youtube) and auto-mode complete-local over real HTTP. */

const EXEC = IDS.executor;
const AUTO = '66666666-6666-4666-8666-000000000001';
const EXPIRED_AUTO = '66666666-6666-4666-8666-000000000002';
const EXPIRED_TIKTOK = '66666666-6666-4666-8666-0000000000aa';

function buildFixture() {
  const f = demoFixture({
    automations: [
      {
        id: AUTO,
        name: 'Auto to everything',
        execution_mode: 'auto',
        schedule: { cron: '0 9 * * *', timezone: 'Europe/Berlin' },
        targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok' },
          { social_account_id: IDS.accounts.youtube, platform: 'youtube' },
          { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' },
          { social_account_id: IDS.accounts.instagram, platform: 'instagram' },
        ],
      },
      {
        id: EXPIRED_AUTO,
        name: 'Auto to a disconnected tiktok',
        execution_mode: 'auto',
        schedule: { cron: '0 9 * * *', timezone: 'UTC' },
        targets: [{ social_account_id: EXPIRED_TIKTOK, platform: 'tiktok' }],
      },
    ],
  });
  f.owners![0]!.accounts!.push({
    id: EXPIRED_TIKTOK,
    platform: 'tiktok',
    name: 'Disconnected tiktok',
    token_expired: true,
  });
  return f;
}
const fixture = buildFixture();

const hex = (algo: 'sha256' | 'md5', bytes: Buffer) => createHash(algo).update(bytes).digest('hex');

let sb: TestSandbox;
let mp4: Buffer;
let png: Buffer;
beforeAll(async () => {
  sb = await startTestSandbox(fixture);
  const media = mediaFixtures();
  mp4 = readFileSync(media.mp4);
  png = readFileSync(media.png);
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(fixture);
});

async function startRun(automationId = AUTO, key = 'k1'): Promise<StartRunResponse> {
  const res = await sb.api('POST', `/api/agent/automations/${automationId}/start`, {
    body: { executor_id: EXEC, revision: 1, idempotency_key: key },
  });
  expect(res.status, res.text).toBe(200);
  return StartRunResponse.parse(res.body);
}

function openUpload(
  runId: string,
  token: string,
  accountId: string,
  opts: { bytes?: Buffer; runnerKey?: string; length?: number } = {},
) {
  const bytes = opts.bytes ?? mp4;
  return sb.api('POST', `/api/agent/runs/${runId}/direct-upload`, {
    key: token,
    headers: opts.runnerKey ? { 'x-service-runner-key': opts.runnerKey } : {},
    body: {
      social_account_id: accountId,
      title: 'Clip of the day',
      description: 'made with ffmpeg',
      content_type: 'video/mp4',
      content_length: opts.length ?? bytes.length,
      content_sha256: hex('sha256', bytes),
      content_md5: hex('md5', bytes),
    },
  });
}

async function put(url: string, headers: Record<string, string>, bytes: Buffer) {
  const res = await fetch(url, { method: 'PUT', headers, body: bytes });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { code?: string } };
}

const status = (runId: string, token: string, id: string) =>
  sb.api('POST', `/api/agent/runs/${runId}/direct-upload/status`, {
    key: token,
    body: { direct_upload_id: id },
  });

describe('run media uploads', () => {
  it('reserve, PUT and complete with the run token; the API key is 401 RUN_TOKEN_REQUIRED', async () => {
    const { run, run_token } = await startRun();
    const reservation = {
      content_type: 'image/png',
      content_length: png.length,
      content_sha256: hex('sha256', png),
      content_md5: hex('md5', png),
    };
    const byKey = await sb.api('POST', `/api/agent/runs/${run.id}/media/uploads`, { body: reservation });
    expect(byKey.status).toBe(401);
    expect(byKey.body.code).toBe('RUN_TOKEN_REQUIRED');

    const reserved = await sb.api('POST', `/api/agent/runs/${run.id}/media/uploads`, {
      key: run_token,
      body: reservation,
    });
    expect(reserved.status, reserved.text).toBe(201);
    const uploaded = await put(reserved.body.upload_url, reserved.body.upload_headers, png);
    expect(uploaded.status).toBe(200);

    const completeByKey = await sb.api('PATCH', `/api/agent/runs/${run.id}/media/uploads`, {
      body: { asset_id: reserved.body.asset_id },
    });
    expect(completeByKey.body.code).toBe('RUN_TOKEN_REQUIRED');
    const asset = await sb.api('PATCH', `/api/agent/runs/${run.id}/media/uploads`, {
      key: run_token,
      body: { asset_id: reserved.body.asset_id },
    });
    expect(asset.status, asset.text).toBe(200);
    expect(asset.body).toMatchObject({
      id: reserved.body.asset_id,
      mime_type: 'image/png',
      bytes: png.length,
    });
    const served = await fetch(asset.body.public_url);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });
});

describe('direct upload', () => {
  it('tiktok and youtube end to end, then auto-mode complete-local publishes the rest', async () => {
    const { run, run_token } = await startRun();

    const tiktok = await openUpload(run.id, run_token, IDS.accounts.tiktok);
    expect(tiktok.status, tiktok.text).toBe(200);
    const session = tiktok.body.session;
    expect(session).toMatchObject({ platform: 'tiktok', upload_method: 'PUT', state: 'awaiting_upload' });
    expect(session.upload_url.startsWith(`${sb.url}/`)).toBe(true);
    expect(session.expires_at).toBe('2030-01-01T12:10:00.000Z');

    const before = await status(run.id, run_token, session.id);
    expect(before.body.status.state).toBe('awaiting_upload');
    const putRes = await put(session.upload_url, session.upload_headers, mp4);
    expect(putRes.status).toBe(200);
    expect(putRes.body.direct_upload).toMatchObject({ state: 'processing', bytes: mp4.length });
    const second = await put(session.upload_url, session.upload_headers, mp4);
    expect([second.status, second.body.code]).toEqual([409, 'DIRECT_UPLOAD_CONFLICT']);
    // The first read after the bytes answers processing, the next published (frozen virtual clock).
    expect((await status(run.id, run_token, session.id)).body.status.state).toBe('processing');
    const published = await status(run.id, run_token, session.id);
    expect(published.body.status).toMatchObject({ state: 'published', platform: 'tiktok' });
    expect(published.body.status.platform_post_id).toMatch(/^tiktok_/);

    const noRunner = await openUpload(run.id, run_token, IDS.accounts.youtube);
    expect([noRunner.status, noRunner.body.code]).toEqual([403, 'YOUTUBE_PARENT_RUNNER_REQUIRED']);
    const foreignRunner = await openUpload(run.id, run_token, IDS.accounts.youtube, {
      runnerKey: TEST_KEYS.b,
    });
    expect([foreignRunner.status, foreignRunner.body.code]).toEqual([403, 'YOUTUBE_PARENT_RUNNER_REQUIRED']);
    const revokedRunner = await openUpload(run.id, run_token, IDS.accounts.youtube, {
      runnerKey: TEST_KEYS.aRevoked,
    });
    expect(revokedRunner.status).toBe(403);
    const youtube = await openUpload(run.id, run_token, IDS.accounts.youtube, { runnerKey: TEST_KEYS.a });
    expect(youtube.status, youtube.text).toBe(200);
    const yt = youtube.body.session;
    expect((await put(yt.upload_url, yt.upload_headers, mp4)).status).toBe(200);
    // Two seconds on the sandbox clock also finish processing.
    await sb.control.advance(2000);
    expect((await status(run.id, run_token, yt.id)).body.status.state).toBe('published');

    const missingYoutube = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'Clip of the day',
        media_urls: ['https://cdn.example.com/clip.mp4'],
        published_targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok', direct_upload_id: session.id },
        ],
      },
    });
    expect([missingYoutube.status, missingYoutube.body.code]).toEqual([400, 'INVALID_RUN_OUTPUT']);
    expect(missingYoutube.body.error).toContain('youtube');
    const swapped = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'Clip of the day',
        published_targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok', direct_upload_id: yt.id },
          { social_account_id: IDS.accounts.youtube, platform: 'youtube', direct_upload_id: session.id },
        ],
      },
    });
    expect([swapped.status, swapped.body.code]).toEqual([400, 'INVALID_RUN_OUTPUT']);

    const done = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'Clip of the day',
        media_type: 'video',
        media_urls: ['https://cdn.example.com/clip.mp4'],
        published_targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok', direct_upload_id: session.id },
          { social_account_id: IDS.accounts.youtube, platform: 'youtube', direct_upload_id: yt.id },
        ],
      },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.run.state).toBe('completed');
    // One post for the run: the service published instagram and linkedin now; tiktok and youtube were
    // published by the run's direct uploads and are recorded as posted deliveries of the same post.
    expect(done.body.social_posts.map((d: { platform: string }) => d.platform).sort()).toEqual([
      'instagram',
      'linkedin',
      'tiktok',
      'youtube',
    ]);
    expect(done.body.social_posts.every((d: { status: string }) => d.status === 'posted')).toBe(true);
    expect(
      done.body.published_targets.map((p: { platform_post_id: string }) => p.platform_post_id.split('_')[0]),
    ).toEqual(['tiktok', 'youtube']);
    expect(done.body.post).toMatchObject({ run_id: run.id, source: 'automation' });
    expect((await sb.control.state()).deliveries).toEqual({ posted: 4 });
  });

  it('direct-upload publications of an auto run show in the post list and in analytics, linked to the run', async () => {
    const { run, run_token } = await startRun();
    const tiktok = (await openUpload(run.id, run_token, IDS.accounts.tiktok)).body.session;
    expect((await put(tiktok.upload_url, tiktok.upload_headers, mp4)).status).toBe(200);
    const youtube = (await openUpload(run.id, run_token, IDS.accounts.youtube, { runnerKey: TEST_KEYS.a }))
      .body.session;
    expect((await put(youtube.upload_url, youtube.upload_headers, mp4)).status).toBe(200);
    await sb.control.advance(2000);
    const ids = new Map<string, string>();
    for (const u of [tiktok, youtube]) {
      const st = (await status(run.id, run_token, u.id)).body.status;
      expect(st.state).toBe('published');
      ids.set(u.platform, st.platform_post_id);
    }
    const done = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'Published by the run',
        published_targets: [
          { social_account_id: IDS.accounts.tiktok, platform: 'tiktok', direct_upload_id: tiktok.id },
          { social_account_id: IDS.accounts.youtube, platform: 'youtube', direct_upload_id: youtube.id },
        ],
      },
    });
    expect(done.status, done.text).toBe(200);
    const postId = done.body.post.id as string;
    expect(done.body.run.result).toMatchObject({ post_id: postId });
    expect(done.body.run.result.social_post_ids).toHaveLength(4);

    const listed = (await sb.api('GET', '/api/cli/posts?status=posted')).body.posts as {
      post_id: string;
      platform: string;
      status: string;
      run_id: string;
      direct_upload_id: string | null;
      external_url: string;
      published_at: string;
      caption: string;
    }[];
    const direct = listed.filter((d) => d.direct_upload_id !== null);
    expect(direct.map((d) => d.platform).sort()).toEqual(['tiktok', 'youtube']);
    for (const d of direct) {
      expect(d).toMatchObject({
        post_id: postId,
        run_id: run.id,
        status: 'posted',
        caption: 'Published by the run',
      });
      expect(d.direct_upload_id).toBe(d.platform === 'tiktok' ? tiktok.id : youtube.id);
      expect(d.external_url.endsWith(ids.get(d.platform)!)).toBe(true);
      expect(d.published_at).toBe('2030-01-01T12:00:02.000Z');
    }
    const youtubeOnly = (await sb.api('GET', '/api/cli/posts?platform=youtube')).body.posts;
    expect(youtubeOnly).toHaveLength(1);

    // A day later the dashboard's analytics count them like any other publication.
    await sb.control.advance(24 * 3_600_000);
    const overview = (await sb.api('GET', '/api/cli/analytics')).body;
    expect(overview.totals.posts).toBe(4);
    const platforms = (overview.by_platform as { platform: string; impressions: number }[]).map(
      (p) => p.platform,
    );
    expect(platforms.sort()).toEqual(['instagram', 'linkedin', 'tiktok', 'youtube']);
    const one = (await sb.api('GET', `/api/cli/analytics?post_id=${postId}`)).body;
    expect(one.deliveries).toHaveLength(4);
    expect(one.totals.impressions).toBeGreaterThan(0);
    const onlyTiktok = (await sb.api('GET', '/api/cli/analytics?platform=tiktok')).body;
    expect(onlyTiktok.totals.posts).toBe(1);
    expect(onlyTiktok.totals.impressions).toBeGreaterThan(0);
  });

  it('answers each direct-upload error on its condition', async () => {
    const { run, run_token } = await startRun();
    const byKey = await openUpload(run.id, TEST_KEYS.a, IDS.accounts.tiktok);
    expect([byKey.status, byKey.body.code]).toEqual([401, 'RUN_TOKEN_REQUIRED']);
    const statusByKey = await status(run.id, TEST_KEYS.a, IDS.automation);
    expect([statusByKey.status, statusByKey.body.code]).toEqual([401, 'RUN_TOKEN_REQUIRED']);

    const instagram = await openUpload(run.id, run_token, IDS.accounts.instagram);
    expect(instagram.status).toBe(400);
    const tooBig = await openUpload(run.id, run_token, IDS.accounts.tiktok, { length: 64 * 1024 * 1024 + 1 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error).toContain('67108864');
    const notMp4 = await sb.api('POST', `/api/agent/runs/${run.id}/direct-upload`, {
      key: run_token,
      body: {
        social_account_id: IDS.accounts.tiktok,
        title: 'x',
        content_type: 'video/quicktime',
        content_length: 10,
        content_sha256: 'a'.repeat(64),
      },
    });
    expect(notMp4.status).toBe(400);
    const foreignAccount = await openUpload(run.id, run_token, IDS.accountB);
    expect(foreignAccount.status).toBe(404);

    const first = await openUpload(run.id, run_token, IDS.accounts.tiktok);
    expect(first.status).toBe(200);
    const conflict = await openUpload(run.id, run_token, IDS.accounts.tiktok);
    expect([conflict.status, conflict.body.code]).toEqual([409, 'DIRECT_UPLOAD_CONFLICT']);

    const unknown = await status(run.id, run_token, '77777777-7777-4777-8777-000000000001');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'DIRECT_UPLOAD_NOT_FOUND']);
    const other = await startRun(AUTO, 'k2');
    const crossRun = await status(other.run.id, other.run_token, first.body.session.id);
    expect([crossRun.status, crossRun.body.code]).toEqual([404, 'DIRECT_UPLOAD_NOT_FOUND']);

    const expiredRun = await startRun(EXPIRED_AUTO, 'k3');
    const expired = await openUpload(expiredRun.run.id, expiredRun.run_token, EXPIRED_TIKTOK);
    expect([expired.status, expired.body.code]).toEqual([401, 'SOCIAL_TOKEN_EXPIRED']);

    await sb.api('POST', `/api/agent/runs/${run.id}/fail`, { key: run_token, body: { error: 'stop' } });
    const inactive = await openUpload(run.id, run_token, IDS.accounts.youtube, { runnerKey: TEST_KEYS.a });
    expect([inactive.status, inactive.body.code]).toEqual([409, 'RUN_NOT_ACTIVE']);
  });

  it('the PUT verifies signature, expiry, length and hashes; a bad body can be retried', async () => {
    const { run, run_token } = await startRun();
    const { session } = (await openUpload(run.id, run_token, IDS.accounts.tiktok)).body;

    const forged = session.upload_url.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
    const badSig = await put(forged, session.upload_headers, mp4);
    expect([badSig.status, badSig.body.code]).toEqual([403, 'UPLOAD_URL_INVALID']);

    const corrupted = Buffer.from(mp4);
    corrupted.writeUInt8(corrupted.readUInt8(corrupted.length - 1) ^ 0xff, corrupted.length - 1);
    const mismatch = await put(session.upload_url, session.upload_headers, corrupted);
    expect([mismatch.status, mismatch.body.code]).toEqual([400, 'UPLOAD_INTEGRITY_MISMATCH']);
    expect(String(mismatch.body.error)).toContain('sha256');
    const short = await put(session.upload_url, { 'content-type': 'video/mp4' }, mp4.subarray(0, 100));
    expect(short.status).toBe(400);
    expect((await status(run.id, run_token, session.id)).body.status.state).toBe('awaiting_upload');
    expect((await put(session.upload_url, session.upload_headers, mp4)).status).toBe(200);

    // A PNG declared honestly as the body still is not an MP4.
    const { session: pngSession } = (
      await openUpload(run.id, run_token, IDS.accounts.youtube, { bytes: png, runnerKey: TEST_KEYS.a })
    ).body;
    const pngPut = await put(pngSession.upload_url, pngSession.upload_headers, png);
    expect([pngPut.status, pngPut.body.code]).toEqual([400, 'UPLOAD_INTEGRITY_MISMATCH']);

    // After 10 minutes the address is dead and the upload failed, which frees the slot.
    await sb.control.advance(10 * 60_000);
    const late = await put(pngSession.upload_url, pngSession.upload_headers, png);
    expect([late.status, late.body.code]).toEqual([403, 'UPLOAD_URL_EXPIRED']);
    expect((await status(run.id, run_token, pngSession.id)).body.status.state).toBe('failed');
    const reopened = await openUpload(run.id, run_token, IDS.accounts.youtube, { runnerKey: TEST_KEYS.a });
    expect(reopened.status).toBe(200);
  });

  it('streams bodies past the JSON body limit to disk (a 9 MiB MP4)', async () => {
    const { run, run_token } = await startRun();
    const big = Buffer.concat([mp4, Buffer.alloc(9 * 1024 * 1024)]);
    const { session } = (await openUpload(run.id, run_token, IDS.accounts.tiktok, { bytes: big })).body;
    const res = await put(session.upload_url, session.upload_headers, big);
    expect(res.status).toBe(200);
    expect(res.body.direct_upload).toMatchObject({ state: 'processing', bytes: big.length });
  });
});
