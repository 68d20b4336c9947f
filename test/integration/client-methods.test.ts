import { createHash, randomUUID } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import { ApiError, CredentialMissingError, ValidationError } from '../../src-main/core/api/errors';
import { OPERATIONS } from '../../src-shared/api/operations';
import { IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const hex = (algo: string, b: Buffer) => createHash(algo).update(b).digest('hex');
const AUTO_ID = '44444444-4444-4444-8444-000000000001';
const LEGACY_ID = '44444444-4444-4444-8444-000000000002';

let sb: TestSandbox;
let client: ApiClient;
const called = new Set<string>();

/** Records which convenience methods the tests exercised, to prove every operation is covered. */
function track(c: ApiClient): ApiClient {
  return new Proxy(c, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v === 'function' && typeof prop === 'string') {
        return (...args: unknown[]) => {
          called.add(prop);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return v;
    },
  });
}

beforeAll(async () => {
  sb = await startTestSandbox();
  client = track(
    createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 2, minTimeoutMs: 10 } }),
  );
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

describe('the API client against the sandbox', () => {
  it('accounts, posts: list, create, update, delete', async () => {
    const { accounts } = await client.listAccounts();
    expect(accounts.map((a) => a.id)).toContain(IDS.accounts.tiktok);

    const created = await client.createPost({
      caption: 'draft via client',
      action: 'draft',
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
    });
    expect(created.social_posts).toHaveLength(1);
    const delivery = created.social_posts[0]!;
    expect(delivery.status).toBe('draft');

    const updated = await client.updatePost({ id: delivery.id, caption: 'edited caption' });
    expect(updated.social_posts[0]?.caption).toBe('edited caption');

    const listed = await client.listPosts({ status: 'draft', limit: 10 });
    expect(listed.posts.map((p) => p.id)).toContain(delivery.id);

    expect(await client.deletePost(delivery.id)).toMatchObject({ success: true });
    const after = await client.listPosts({ status: 'draft' });
    expect(after.posts.map((p) => p.id)).not.toContain(delivery.id);
  });

  it('bulk: create (idempotent per batch), inspect page by page, update', async () => {
    const batch_id = randomUUID();
    const items = Array.from({ length: 5 }, (_, i) => ({
      item_key: `k${i}`,
      caption: `bulk ${i}`,
      action: 'draft' as const,
      targets: [{ platform: 'linkedin' as const, social_account_id: IDS.accounts.linkedin }],
    }));
    const first = await client.bulkCreate({ batch_id, items });
    expect(first.created_count).toBe(5);
    const again = await client.bulkCreate({ batch_id, items });
    expect(again.items.map((i) => i.post_id)).toEqual(first.items.map((i) => i.post_id));

    const page = await client.bulkInspect({ batch_id, limit: 2 });
    expect(page.items).toHaveLength(2);
    const all = [];
    for await (const r of client.iterateBulkResults(batch_id, { pageSize: 2 })) all.push(r);
    expect(all.map((r) => r.item_key)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);

    const upd = await client.bulkUpdate({ updates: [{ post_id: all[0]!.post_id!, caption: 'bulk edited' }] });
    expect(upd.updated_count).toBe(1);
  });

  it('media: reserve, PUT through the shared dispatcher, complete', async () => {
    const res = await client.reserveMedia({
      content_type: 'image/png',
      content_length: PNG.length,
      content_sha256: hex('sha256', PNG),
      content_md5: hex('md5', PNG),
    });
    expect(res.already_uploaded).toBe(false);
    const put = await undiciRequest(res.upload_url!, {
      method: 'PUT',
      headers: res.upload_headers,
      body: PNG,
      dispatcher: client.dispatcher,
    });
    await put.body.dump();
    expect(put.statusCode).toBeLessThan(300);
    const asset = await client.completeMedia({ asset_id: res.asset_id });
    expect(asset).toMatchObject({ id: res.asset_id, mime_type: 'image/png', bytes: PNG.length });
  });

  it('articles, analytics, skills (no key needed)', async () => {
    const a = await client.createArticle({
      title: 'Hello',
      body_markdown: '# Hello\n',
      destinations: ['devto', 'x'],
      action: 'publish',
    });
    expect(a.results?.length).toBe(2);
    expect((await client.listArticles({ limit: 5 })).articles.map((x) => x.id)).toContain(a.article.id);
    expect(await client.deleteArticle(a.article.id)).toMatchObject({ success: true });

    const overview = await client.analytics({ limit: 5 });
    expect(overview.totals).toHaveProperty('impressions');

    const anon = track(createApiClient({ baseUrl: sb.url }));
    const { skills } = await anon.listSkills();
    expect(skills.map((s) => s.id)).toContain('test-skill');
    const v1 = await anon.getSkill('test-skill', { version: '1.0.0' });
    expect(v1.versions).toEqual(['1.0.0', '2.0.0']);
    expect(v1.skill.markdown).toContain('v1');
    expect(await anon.getSkillMarkdown('test-skill')).toContain('# Test skill v2');
    // No key at all: keyed operations fail locally, naming the remedy.
    await expect(anon.listAccounts()).rejects.toBeInstanceOf(CredentialMissingError);
    await anon.close();
  });

  it('the runner protocol: executor, sync, ack, start, events, run media, direct upload, complete, fail', async () => {
    const put = await sb.control.putAutomation(AUTO_ID, {
      owner_id: IDS.ownerA,
      name: 'auto',
      status: 'active',
      execution_mode: 'auto',
      queue: 'local',
      schedule: { cron: '0 * * * *', timezone: 'UTC' },
      instructions: 'x',
      targets: [
        { social_account_id: IDS.accounts.tiktok, platform: 'tiktok' },
        { social_account_id: IDS.accounts.youtube, platform: 'youtube' },
      ],
    });
    expect(put.status).toBe(200);

    const { executor } = await client.registerExecutor({ name: 'client test', agent_type: 'test-agent' });
    const { automations } = await client.syncAutomations(executor.id);
    const auto = automations.find((a) => a.id === AUTO_ID)!;
    expect(
      (await client.ackAutomation(AUTO_ID, { executor_id: executor.id, revision: auto.revision })).automation
        .id,
    ).toBe(AUTO_ID);
    expect((await client.listAutomations()).automations.map((a) => a.id)).toContain(AUTO_ID);

    const startBody = {
      executor_id: executor.id,
      revision: auto.revision,
      idempotency_key: `${AUTO_ID}:1:x`,
    };
    const started = await client.startRun(AUTO_ID, startBody);
    const runId = started.run.id;
    const token = started.run_token;
    expect((await client.getRun(runId, executor.id)).run.state).toBe('running');
    expect((await client.listAutomations(token)).automations.map((a) => a.id)).toEqual([AUTO_ID]);
    expect((await client.runEvent(runId, { step_id: 's1', status: 'started' }, token)).event.id).toBeTruthy();

    // Other bytes than the CLI upload above, so this is a new asset of the run (trailing bytes after IEND).
    const png2 = Buffer.concat([PNG, Buffer.from('run')]);
    const r = await client.reserveRunMedia(runId, token, {
      content_type: 'image/png',
      content_length: png2.length,
      content_sha256: hex('sha256', png2),
      content_md5: hex('md5', png2),
    });
    expect(r.already_uploaded).toBe(false);
    const putRes = await undiciRequest(r.upload_url!, {
      method: 'PUT',
      headers: r.upload_headers,
      body: png2,
      dispatcher: client.dispatcher,
    });
    await putRes.body.dump();
    expect((await client.completeRunMedia(runId, token, { asset_id: r.asset_id })).id).toBe(r.asset_id);

    const video = {
      content_type: 'video/mp4' as const,
      content_length: 1000,
      content_sha256: 'a'.repeat(64),
    };
    const tiktok = await client.directUpload(runId, token, {
      social_account_id: IDS.accounts.tiktok,
      title: 'clip',
      ...video,
    });
    expect(tiktok.session.platform).toBe('tiktok');
    // YouTube needs the parent runner's key header: without it 403, with it a session.
    const noKey = await client
      .directUpload(runId, token, { social_account_id: IDS.accounts.youtube, title: 'clip', ...video })
      .catch((e: unknown) => e);
    expect(noKey).toBeInstanceOf(ApiError);
    expect((noKey as ApiError).code).toBe('YOUTUBE_PARENT_RUNNER_REQUIRED');
    const yt = await client.directUpload(
      runId,
      token,
      { social_account_id: IDS.accounts.youtube, title: 'clip', ...video },
      { youtube: true },
    );
    expect(yt.session.platform).toBe('youtube');
    const st = await client.directUploadStatus(runId, token, { direct_upload_id: tiktok.session.id });
    expect(st.status.state).toBe('awaiting_upload');

    // Run-token operations refuse locally without one.
    await expect(
      client.reserveRunMedia(runId, '', { ...video, content_md5: 'b'.repeat(32) }),
    ).rejects.toBeInstanceOf(CredentialMissingError);
    // Fail with the API key needs executor_id: checked before sending.
    await expect(client.failRun(runId, { error: 'x' })).rejects.toBeInstanceOf(ValidationError);

    const second = await client.startRun(AUTO_ID, { ...startBody, idempotency_key: `${AUTO_ID}:1:y` });
    const failed = await client.failRun(second.run.id, { error: 'agent crashed', executor_id: executor.id });
    expect(failed.run.state).toBe('failed');

    // Draft-mode automation: complete-local with caption and media.
    const drafts = await client.startRun(IDS.automation, {
      executor_id: IDS.executor,
      revision: 1,
      idempotency_key: `${IDS.automation}:1:z`,
    });
    const done = await client.completeLocal(
      drafts.run.id,
      { caption: 'from the agent', media_urls: ['https://example.com/a.png'] },
      drafts.run_token,
    );
    expect(done.run.state).toBe('completed');
  });

  it('the legacy queue: claim, renew, complete, skip', async () => {
    await sb.control.putAutomation(LEGACY_ID, {
      owner_id: IDS.ownerA,
      name: 'legacy',
      status: 'active',
      execution_mode: 'draft',
      queue: 'legacy',
      schedule: { cron: '0 * * * *', timezone: 'UTC' },
      instructions: 'x',
      targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
    });
    expect((await client.claimRun({ automation_id: LEGACY_ID })).run).toBeNull();
    await sb.control.advance(2 * 60 * 60 * 1000 + 1000);
    const a = (await client.claimRun({ automation_id: LEGACY_ID, lease_seconds: 120 })).run!;
    expect(a.state).toBe('claimed');
    expect(
      (await client.renewClaim(a.id, { claim_token: a.claim_token, lease_seconds: 300 })).run.state,
    ).toBe('claimed');
    expect(
      (await client.completeClaim(a.id, { claim_token: a.claim_token, caption: 'legacy done' })).run.state,
    ).toBe('completed');
    const b = (await client.claimRun({ automation_id: LEGACY_ID })).run!;
    expect(
      (await client.skipClaim(b.id, { claim_token: b.claim_token, reason: 'nothing new' })).run.state,
    ).toBe('skipped');
  });

  it('exercised a convenience method for every operation', () => {
    const methods = Object.keys(OPERATIONS);
    expect(methods.filter((m) => !called.has(m))).toEqual([]);
  });
});
