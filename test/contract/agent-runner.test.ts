import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StartRunResponse } from '../../src-shared/api';
import type { TestSandbox } from '../helpers/sandbox';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/** Executors, sync, ack, start, runs, events, fail and complete-local over real HTTP (docs/sandbox-agent.md). */

const EXEC_1 = IDS.executor;
const EXEC_2 = 'exec-test-2';
const A = {
  draft: '44444444-4444-4444-8444-000000000001',
  bound: '44444444-4444-4444-8444-000000000002',
  paused: '44444444-4444-4444-8444-000000000003',
  removed: '44444444-4444-4444-8444-000000000004',
  noTargets: '44444444-4444-4444-8444-000000000005',
  legacy: '44444444-4444-4444-8444-000000000006',
} as const;
const target = (platform: 'instagram' | 'x' | 'youtube' | 'linkedin') => ({
  social_account_id: IDS.accounts[platform],
  platform,
});
const automation = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `automation ${id.slice(-1)}`,
  status: 'active',
  execution_mode: 'draft',
  queue: 'local',
  schedule: { cron: '0 * * * *', timezone: 'UTC' },
  instructions: 'Post the clip of the day.',
  targets: [target('instagram'), target('youtube')],
  ...extra,
});

const fixture = demoFixture({
  executors: [
    { id: EXEC_1, name: 'Laptop', agent_type: 'folder' },
    { id: EXEC_2, name: 'Desktop', agent_type: 'folder' },
  ],
  automations: [
    automation(A.draft),
    automation(A.bound, { executor_id: EXEC_1, targets: [target('x')] }),
    automation(A.paused, { status: 'paused' }),
    automation(A.removed, { status: 'removed' }),
    automation(A.noTargets, { targets: [] }),
    automation(A.legacy, { queue: 'legacy', targets: [target('instagram')] }),
  ],
});

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(fixture);
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(fixture);
});

async function start(
  automationId: string,
  opts: { executor?: string; revision?: number; key?: string; idempotencyKey?: string } = {},
) {
  return sb.api('POST', `/api/agent/automations/${automationId}/start`, {
    key: opts.key ?? TEST_KEYS.a,
    body: {
      executor_id: opts.executor ?? EXEC_1,
      revision: opts.revision ?? 1,
      idempotency_key:
        opts.idempotencyKey ?? `${automationId}:${opts.revision ?? 1}:2030-01-01T12:00:00.000Z`,
      scheduled_for: '2030-01-01T12:00:00.000Z',
    },
  });
}

async function started(
  automationId: string,
  opts: Parameters<typeof start>[1] = {},
): Promise<StartRunResponse> {
  const res = await start(automationId, opts);
  expect(res.status, res.text).toBe(200);
  return StartRunResponse.parse(res.body);
}

describe('automations and executors', () => {
  it('lists the owner’s automations with status and revision; other owners see none; 401 without a key', async () => {
    const a = await sb.api('GET', '/api/automations');
    expect(a.status).toBe(200);
    const byId = new Map(a.body.automations.map((x: { id: string }) => [x.id, x]));
    expect(byId.size).toBe(6);
    expect(byId.get(A.paused)).toMatchObject({ status: 'paused', revision: 1, execution_mode: 'draft' });
    expect(byId.get(A.legacy)).toMatchObject({
      queue: 'legacy',
      schedule: { cron: '0 * * * *', timezone: 'UTC' },
    });
    expect((await sb.api('GET', '/api/automations', { key: TEST_KEYS.b })).body.automations).toEqual([]);
    const none = await sb.api('GET', '/api/automations', { key: null });
    expect(none.status).toBe(401);
    expect((await sb.api('GET', '/api/automations', { key: TEST_KEYS.aExpired })).status).toBe(401);
  });

  it('registers and updates executors; unknown or foreign executor_id is 404 EXECUTOR_NOT_FOUND; limits 100/50', async () => {
    const created = await sb.api('POST', '/api/agent/executors', {
      body: {
        name: 'Studio Mac',
        agent_type: 'claude',
        device_label: 'studio',
        capabilities: { ffmpeg: true },
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.executor.id as string;
    expect(created.body.executor).toMatchObject({
      name: 'Studio Mac',
      agent_type: 'claude',
      device_label: 'studio',
    });

    const updated = await sb.api('POST', '/api/agent/executors', {
      body: { executor_id: id, name: 'Studio Mac 2', agent_type: 'claude' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.executor).toMatchObject({ id, name: 'Studio Mac 2', capabilities: { ffmpeg: true } });

    const unknown = await sb.api('POST', '/api/agent/executors', {
      body: { executor_id: 'no-such-executor', name: 'x', agent_type: 'y' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('EXECUTOR_NOT_FOUND');
    const foreign = await sb.api('POST', '/api/agent/executors', {
      key: TEST_KEYS.b,
      body: { executor_id: id, name: 'x', agent_type: 'y' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('EXECUTOR_NOT_FOUND');

    const longName = await sb.api('POST', '/api/agent/executors', {
      body: { name: 'n'.repeat(101), agent_type: 'y' },
    });
    expect(longName.status).toBe(400);
    expect(longName.body.error).toContain('name');
    const longType = await sb.api('POST', '/api/agent/executors', {
      body: { name: 'n', agent_type: 't'.repeat(51) },
    });
    expect(longType.status).toBe(400);
    expect(
      (await sb.api('POST', '/api/agent/executors', { key: null, body: { name: 'n', agent_type: 't' } }))
        .status,
    ).toBe(401);
    expect((await sb.control.state()).executors).toBe(3);
  });

  it('sync shows automations bound to the executor or to none, removed ones included', async () => {
    const one = await sb.api('GET', `/api/agent/automations/sync?executor_id=${EXEC_1}`);
    expect(one.status).toBe(200);
    const ids1 = one.body.automations.map((a: { id: string }) => a.id);
    expect(ids1).toContain(A.bound);
    expect(ids1).toContain(A.removed);
    expect(ids1).toHaveLength(6);
    const two = await sb.api('GET', `/api/agent/automations/sync?executor_id=${EXEC_2}`);
    expect(two.body.automations.map((a: { id: string }) => a.id)).not.toContain(A.bound);
    expect(two.body.automations).toHaveLength(5);
    const unknown = await sb.api('GET', '/api/agent/automations/sync?executor_id=ghost');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('EXECUTOR_NOT_FOUND');
    expect((await sb.api('GET', '/api/agent/automations/sync')).status).toBe(400);
  });

  it('ack records the revision; 403 EXECUTOR_MISMATCH for another executor; 409 REVISION_STALE after a replace', async () => {
    const ok = await sb.api('POST', `/api/agent/automations/${A.bound}/ack`, {
      body: { executor_id: EXEC_1, revision: 1 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.automation).toMatchObject({
      id: A.bound,
      revision: 1,
      acked_revision: 1,
      acked_by: EXEC_1,
    });

    const mismatch = await sb.api('POST', `/api/agent/automations/${A.bound}/ack`, {
      body: { executor_id: EXEC_2, revision: 1 },
    });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.code).toBe('EXECUTOR_MISMATCH');

    const { id: _id, ...body } = automation(A.bound, {
      executor_id: EXEC_1,
      targets: [target('x')],
      name: 'renamed',
    });
    const replaced = await sb.control.putAutomation(A.bound, body);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ revision: 2, acked_revision: 1, name: 'renamed' });

    const stale = await sb.api('POST', `/api/agent/automations/${A.bound}/ack`, {
      body: { executor_id: EXEC_1, revision: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('REVISION_STALE');
    const fresh = await sb.api('POST', `/api/agent/automations/${A.bound}/ack`, {
      body: { executor_id: EXEC_1, revision: 2 },
    });
    expect(fresh.body.automation.acked_revision).toBe(2);

    const foreign = await sb.api('POST', `/api/agent/automations/${A.bound}/ack`, {
      key: TEST_KEYS.b,
      body: { executor_id: EXEC_1, revision: 2 },
    });
    expect(foreign.status).toBe(404);
  });
});

describe('start', () => {
  it('starts a running run with a 6-hour run token; the same key replays the same run with a fresh token', async () => {
    const first = await started(A.draft);
    expect(first.run).toMatchObject({
      automation_id: A.draft,
      state: 'running',
      revision: 1,
      executor_id: EXEC_1,
    });
    expect(first.run.scheduled_for).toBe('2030-01-01T12:00:00.000Z');
    expect(first.run_token_expires_at).toBe('2030-01-01T18:00:00.000Z');

    const again = await started(A.draft);
    expect(again.run.id).toBe(first.run.id);
    expect(again.run_token).not.toBe(first.run_token);
    for (const token of [first.run_token, again.run_token]) {
      const ev = await sb.api('POST', `/api/agent/runs/${first.run.id}/events`, {
        key: token,
        body: { step_id: 'prepare', status: 'info' },
      });
      expect(ev.status).toBe(200);
    }
    expect((await sb.control.state()).runs).toEqual({ running: 1 });

    const otherKey = await started(A.draft, { idempotencyKey: 'another-occurrence' });
    expect(otherKey.run.id).not.toBe(first.run.id);

    const otherExecutor = await start(A.draft, { executor: EXEC_2 });
    expect(otherExecutor.status).toBe(409);
    expect(otherExecutor.body.code).toBe('RUN_CONFLICT');
  });

  it('concurrent starts with one idempotency key create exactly one run', async () => {
    const all = await Promise.all(
      Array.from({ length: 8 }, () => start(A.bound, { idempotencyKey: 'race' })),
    );
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(all.map((r) => r.body.run.id)).size).toBe(1);
    expect((await sb.control.state()).runs).toEqual({ running: 1 });
  });

  it('with a run token, GET /api/automations lists only the run’s automation', async () => {
    const { run_token } = await started(A.bound);
    const listed = await sb.api('GET', '/api/automations', { key: run_token });
    expect(listed.status).toBe(200);
    expect(listed.body.automations.map((a: { id: string }) => a.id)).toEqual([A.bound]);
    // A run token is not an API key.
    expect(
      (await sb.api('GET', `/api/agent/automations/sync?executor_id=${EXEC_1}`, { key: run_token })).status,
    ).toBe(401);
  });

  it('answers every start error on its condition', async () => {
    const cases: [string, Parameters<typeof start>[1], number, string][] = [
      [A.paused, {}, 409, 'AUTOMATION_PAUSED'],
      [A.removed, {}, 409, 'AUTOMATION_REMOVED'],
      [A.legacy, {}, 409, 'WRONG_EXECUTION_MODE'],
      [A.noTargets, {}, 409, 'NO_TARGETS'],
      [A.draft, { revision: 7 }, 409, 'REVISION_STALE'],
      [A.bound, { executor: EXEC_2 }, 403, 'EXECUTOR_MISMATCH'],
      [A.draft, { executor: 'ghost' }, 404, 'EXECUTOR_NOT_FOUND'],
      [A.draft, { key: TEST_KEYS.b }, 404, 'NOT_FOUND'],
    ];
    for (const [id, opts, status, code] of cases) {
      const res = await start(id, opts);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status, code });
    }
    const tooLong = await start(A.draft, { idempotencyKey: 'k'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('idempotency_key');
    expect((await sb.control.state()).runs).toEqual({});
  });
});

describe('runs, events and fail', () => {
  it('returns the run with its events; events need an active run', async () => {
    const { run, run_token } = await started(A.draft);
    const byToken = await sb.api('POST', `/api/agent/runs/${run.id}/events`, {
      key: run_token,
      body: { step_id: 'agent', status: 'started', message: 'spawned', metadata: { pid: 42 } },
    });
    expect(byToken.status).toBe(200);
    expect(byToken.body.event).toMatchObject({ step_id: 'agent', status: 'started', message: 'spawned' });
    const byKey = await sb.api('POST', `/api/agent/runs/${run.id}/events`, {
      body: { executor_id: EXEC_1, step_id: 'agent', status: 'completed' },
    });
    expect(byKey.status).toBe(200);
    const bad = await sb.api('POST', `/api/agent/runs/${run.id}/events`, {
      body: { step_id: 'x', status: 'done' },
    });
    expect(bad.status).toBe(400);

    const got = await sb.api('GET', `/api/agent/runs/${run.id}?executor_id=${EXEC_1}`);
    expect(got.status).toBe(200);
    expect(got.body.run.events.map((e: { status: string }) => e.status)).toEqual(['started', 'completed']);
    expect((await sb.api('GET', `/api/agent/runs/${run.id}`)).status).toBe(400);
    expect((await sb.api('GET', `/api/agent/runs/${run.id}?executor_id=ghost`)).body.code).toBe(
      'EXECUTOR_NOT_FOUND',
    );
    expect(
      (await sb.api('GET', `/api/agent/runs/${run.id}?executor_id=${EXEC_1}`, { key: TEST_KEYS.b })).status,
    ).toBe(404);
    expect(
      (
        await sb.api('POST', `/api/agent/runs/${run.id}/events`, {
          key: TEST_KEYS.b,
          body: { step_id: 'x', status: 'info' },
        })
      ).status,
    ).toBe(404);

    const failed = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      key: run_token,
      body: { error: 'agent exited with code 3' },
    });
    expect(failed.status).toBe(200);
    expect(failed.body.run).toMatchObject({ state: 'failed', error: 'agent exited with code 3' });
    const late = await sb.api('POST', `/api/agent/runs/${run.id}/events`, {
      key: run_token,
      body: { step_id: 'agent', status: 'info' },
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('RUN_NOT_ACTIVE');
  });

  it('fail takes a run token, or an API key with the run’s executor_id; a finished run is RUN_NOT_ACTIVE', async () => {
    const { run } = await started(A.draft);
    const noExecutor = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, { body: { error: 'x' } });
    expect(noExecutor.status).toBe(401);
    expect(noExecutor.body.code).toBe('RUN_TOKEN_REQUIRED');
    const wrongExecutor = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      body: { error: 'x', executor_id: EXEC_2 },
    });
    expect(wrongExecutor.status).toBe(403);
    expect(wrongExecutor.body.code).toBe('EXECUTOR_MISMATCH');
    const tooLong = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      body: { error: 'e'.repeat(1001), executor_id: EXEC_1 },
    });
    expect(tooLong.status).toBe(400);
    const ok = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      body: { error: 'timed out after 600 s', executor_id: EXEC_1, metadata: { timeout_s: 600 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.run).toMatchObject({ state: 'failed', metadata: { timeout_s: 600 } });
    const again = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      body: { error: 'x', executor_id: EXEC_1 },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RUN_NOT_ACTIVE');
    expect((await sb.control.state()).runs).toEqual({ failed: 1 });
  });

  it('a run token is bound to its run and expires after 6 hours on the sandbox clock', async () => {
    const one = await started(A.draft);
    const two = await started(A.draft, { idempotencyKey: 'second' });
    const crossed = await sb.api('POST', `/api/agent/runs/${two.run.id}/events`, {
      key: one.run_token,
      body: { step_id: 's', status: 'info' },
    });
    expect(crossed.status).toBe(401);
    expect(crossed.body.code).toBe('RUN_TOKEN_REQUIRED');
    expect(crossed.text).not.toContain(one.run_token);

    await sb.control.advance(6 * 3600_000 - 1000);
    const justBefore = await sb.api('POST', `/api/agent/runs/${one.run.id}/events`, {
      key: one.run_token,
      body: { step_id: 's', status: 'info' },
    });
    expect(justBefore.status).toBe(200);
    await sb.control.advance(1000);
    const expired = await sb.api('POST', `/api/agent/runs/${one.run.id}/events`, {
      key: one.run_token,
      body: { step_id: 's', status: 'info' },
    });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('RUN_TOKEN_REQUIRED');
    expect(expired.body.error).toContain('expired');
    const media = await sb.api('POST', `/api/agent/runs/${one.run.id}/media/uploads`, {
      key: one.run_token,
      body: {
        content_type: 'image/png',
        content_length: 1,
        content_sha256: 'a'.repeat(64),
        content_md5: 'b'.repeat(32),
      },
    });
    expect(media.status).toBe(401);
    expect(media.body.code).toBe('RUN_TOKEN_REQUIRED');
    // The run itself is still running: the API key completes it.
    const done = await sb.api('POST', `/api/agent/runs/${one.run.id}/complete-local`, {
      body: { caption: 'late but fine', executor_id: EXEC_1 },
    });
    expect(done.status).toBe(200);
    expect(done.body.run.state).toBe('completed');
  });
});

describe('complete-local', () => {
  it('draft mode creates one draft per target and completes the run; a second completion is RUN_CONFLICT', async () => {
    const { run, run_token } = await started(A.draft);
    const res = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'Clip of the day',
        media_urls: ['https://cdn.example.com/clip.mp4'],
        media_type: 'video',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.run).toMatchObject({ state: 'completed', result: { mode: 'draft' } });
    expect(
      res.body.social_posts.map((d: { platform: string; status: string }) => [d.platform, d.status]).sort(),
    ).toEqual([
      ['instagram', 'draft'],
      ['youtube', 'draft'],
    ]);
    const drafts = await sb.api('GET', '/api/cli/posts?status=draft');
    expect(drafts.body.posts).toHaveLength(2);
    expect(drafts.body.posts[0].caption).toBe('Clip of the day');

    const again = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: { caption: 'twice' },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RUN_CONFLICT');
    expect((await sb.api('GET', '/api/cli/posts?status=draft')).body.posts).toHaveLength(2);
    const failAfter = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      key: run_token,
      body: { error: 'x' },
    });
    expect(failAfter.body.code).toBe('RUN_NOT_ACTIVE');
  });

  it('draft mode refuses published_targets and output over the limits with INVALID_RUN_OUTPUT or 400', async () => {
    const { run, run_token } = await started(A.draft);
    const withTargets = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'x',
        published_targets: [
          { social_account_id: IDS.accounts.youtube, platform: 'youtube', direct_upload_id: IDS.automation },
        ],
      },
    });
    expect(withTargets.status).toBe(400);
    expect(withTargets.body.code).toBe('INVALID_RUN_OUTPUT');
    const longCaption = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: { caption: 'c'.repeat(2201) },
    });
    expect(longCaption.status).toBe(400);
    expect(longCaption.body.error).toContain('2200');
    const tooMany = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: run_token,
      body: {
        caption: 'x',
        media_urls: Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.jpg`),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('INVALID_RUN_OUTPUT');
    expect((await sb.api('GET', `/api/agent/runs/${run.id}?executor_id=${EXEC_1}`)).body.run.state).toBe(
      'running',
    );
    expect((await sb.control.state()).posts).toBe(0);
  });

  it('answers AUTOMATION_PAUSED, REVISION_STALE and AUTOMATION_REMOVED when the automation changed under the run', async () => {
    const { id: _id, ...body } = automation(A.draft);
    const { run, run_token } = await started(A.draft);
    const complete = () =>
      sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, { key: run_token, body: { caption: 'x' } });

    expect((await sb.control.putAutomation(A.draft, { ...body, status: 'paused' })).body.revision).toBe(2);
    const paused = await complete();
    expect([paused.status, paused.body.code]).toEqual([409, 'AUTOMATION_PAUSED']);

    await sb.control.putAutomation(A.draft, { ...body, status: 'active' });
    const stale = await complete();
    expect([stale.status, stale.body.code]).toEqual([409, 'REVISION_STALE']);

    await sb.control.putAutomation(A.draft, { ...body, status: 'removed' });
    const removed = await complete();
    expect([removed.status, removed.body.code]).toEqual([409, 'AUTOMATION_REMOVED']);
    expect((await sb.control.state()).runs).toEqual({ running: 1 });
  });

  it('another owner cannot see, complete or fail the run', async () => {
    const { run } = await started(A.draft);
    const complete = await sb.api('POST', `/api/agent/runs/${run.id}/complete-local`, {
      key: TEST_KEYS.b,
      body: { caption: 'x' },
    });
    expect(complete.status).toBe(404);
    expect((await sb.api('GET', '/api/automations', { key: TEST_KEYS.b })).body.automations).toEqual([]);
  });
});

describe('control route PUT /_sandbox/automations/{id}', () => {
  it('creates with owner_id, replaces with revision + 1, and validates the automation', async () => {
    const id = '55555555-5555-4555-8555-000000000001';
    const { id: _id, ...body } = automation(id);
    const noOwner = await sb.control.putAutomation(id, body);
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.error).toContain('owner_id');
    const created = await sb.control.putAutomation(id, { ...body, owner_id: IDS.ownerA });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id, revision: 1, status: 'active' });
    const replaced = await sb.control.putAutomation(id, { ...body, execution_mode: 'auto' });
    expect(replaced.body).toMatchObject({ revision: 2, execution_mode: 'auto' });
    expect((await sb.control.putAutomation(id, { ...body, owner_id: IDS.ownerB })).status).toBe(400);

    const badCron = await sb.control.putAutomation(id, {
      ...body,
      schedule: { cron: '* * *', timezone: 'UTC' },
    });
    expect(badCron.status).toBe(400);
    expect(badCron.body.error).toContain('schedule');
    const badZone = await sb.control.putAutomation(id, {
      ...body,
      schedule: { cron: '0 9 * * *', timezone: 'Mars/Base' },
    });
    expect(badZone.status).toBe(400);
    const legacyToX = await sb.control.putAutomation(id, {
      ...body,
      queue: 'legacy',
      targets: [target('x')],
    });
    expect(legacyToX.status).toBe(400);
    expect(legacyToX.body.error).toContain('instagram');
    const foreignAccount = await sb.control.putAutomation(id, {
      ...body,
      targets: [{ social_account_id: IDS.accountB, platform: 'x' }],
    });
    expect(foreignAccount.status).toBe(400);
    const listed = await sb.api('GET', '/api/automations');
    expect(listed.body.automations.find((a: { id: string }) => a.id === id).revision).toBe(2);
  });
});
