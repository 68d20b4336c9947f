import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClaimResponse } from '../../src-shared/api';
import type { TestSandbox } from '../helpers/sandbox';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/** The legacy claim queue: cron occurrences on the sandbox clock, claim, renew, lease expiry, complete, skip, fail. */

const HOURLY = '88888888-8888-4888-8888-000000000001';
const BERLIN = '88888888-8888-4888-8888-000000000002';
const PAUSED = '88888888-8888-4888-8888-000000000003';
const LOCAL = '88888888-8888-4888-8888-000000000004';
const instagram = [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }];
const legacy = (id: string, extra: Record<string, unknown>) => ({
  id,
  name: `legacy ${id.slice(-1)}`,
  status: 'active',
  execution_mode: 'auto',
  queue: 'legacy',
  instructions: 'Post the photo of the hour.',
  targets: instagram,
  ...extra,
});

// 12:00 UTC on the fixture clock.
const fixture = demoFixture({
  automations: [
    legacy(HOURLY, { schedule: { cron: '15 * * * *', timezone: 'UTC' } }),
    // 09:00 in Berlin is 08:00 UTC in winter.
    legacy(BERLIN, { schedule: { cron: '0 9 * * *', timezone: 'Europe/Berlin' }, execution_mode: 'draft' }),
    legacy(PAUSED, { schedule: { cron: '* * * * *', timezone: 'UTC' }, status: 'paused' }),
    {
      ...legacy(LOCAL, { schedule: { cron: '0 * * * *', timezone: 'UTC' }, queue: 'local' }),
      targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
    },
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

type Claimed = NonNullable<ClaimResponse['run']>;

async function claim(body?: Record<string, unknown>, key: string = TEST_KEYS.a): Promise<Claimed | null> {
  const res = await sb.api('POST', '/api/agent/runs/claim', { key, ...(body ? { body } : {}) });
  expect(res.status, res.text).toBe(200);
  return ClaimResponse.parse(res.body).run;
}

const post = (path: string, body: Record<string, unknown>, key: string = TEST_KEYS.a) =>
  sb.api('POST', path, { key, body });

describe('legacy queue', () => {
  it('creates one pending run per cron occurrence in the automation’s time zone; paused ones create none', async () => {
    expect(await claim()).toBeNull();
    await sb.control.advance(3 * 3600_000); // 12:00 → 15:00 UTC: 12:15, 13:15, 14:15
    expect((await sb.control.state()).runs).toEqual({ pending: 3 });
    await sb.control.setNow('2030-01-02T08:00:00.000Z'); // Berlin's 09:00 and 17 more hourly ones
    const state = await sb.control.state();
    expect(state.runs).toEqual({ pending: 21 });

    const berlin = await claim({ automation_id: BERLIN });
    expect(berlin?.scheduled_for).toBe('2030-01-02T08:00:00.000Z');
    expect(berlin?.automation).toMatchObject({ id: BERLIN, execution_mode: 'draft' });
    const oldest = await claim({ automation_id: HOURLY });
    expect(oldest?.scheduled_for).toBe('2030-01-01T12:15:00.000Z');

    const other = await claim(undefined, TEST_KEYS.b);
    expect(other).toBeNull();
    const foreign = await sb.api('POST', '/api/agent/runs/claim', {
      key: TEST_KEYS.b,
      body: { automation_id: HOURLY },
    });
    expect(foreign.status).toBe(404);
  });

  it('claims atomically with a lease; renew extends it, a wrong token is CLAIM_CONFLICT', async () => {
    await sb.control.advance(2 * 3600_000);
    const [a, b] = await Promise.all([claim({ lease_seconds: 120 }), claim({ lease_seconds: 120 })]);
    expect(a && b).toBeTruthy();
    expect(a!.id).not.toBe(b!.id);
    expect(a!.state).toBe('claimed');
    expect(a!.lease_expires_at).toBe('2030-01-01T14:02:00.000Z');
    expect(await claim()).toBeNull();

    const wrong = await post(`/api/agent/runs/${a!.id}/renew`, { claim_token: b!.claim_token });
    expect([wrong.status, wrong.body.code]).toEqual([409, 'CLAIM_CONFLICT']);
    await sb.control.advance(60_000);
    const renewed = await post(`/api/agent/runs/${a!.id}/renew`, { claim_token: a!.claim_token });
    expect(renewed.status).toBe(200);
    expect(renewed.body.run.lease_expires_at).toBe('2030-01-01T14:03:00.000Z'); // the claim's own 120 s
    const longer = await post(`/api/agent/runs/${a!.id}/renew`, {
      claim_token: a!.claim_token,
      lease_seconds: 3600,
    });
    expect(longer.body.run.lease_expires_at).toBe('2030-01-01T15:01:00.000Z');

    for (const lease_seconds of [59, 3601]) {
      const res = await sb.api('POST', '/api/agent/runs/claim', { body: { lease_seconds } });
      expect(res.status).toBe(400);
    }
    const defaultLease = await sb.api('POST', `/api/agent/runs/${b!.id}/renew`, {
      body: { claim_token: b!.claim_token, lease_seconds: 30 },
    });
    expect(defaultLease.status).toBe(400);
  });

  it('an expired lease returns the run to pending; the old claim token is void', async () => {
    await sb.control.advance(3600_000);
    const first = (await claim({ lease_seconds: 60 }))!;
    await sb.control.advance(61_000);
    expect((await sb.control.state()).runs).toEqual({ pending: 1 });
    const lost = await post(`/api/agent/runs/${first.id}/renew`, { claim_token: first.claim_token });
    expect([lost.status, lost.body.code]).toEqual([409, 'CLAIM_CONFLICT']);
    expect(lost.body.error).toContain('lease expired');

    const second = (await claim())!;
    expect(second.id).toBe(first.id);
    expect(second.claim_token).not.toBe(first.claim_token);
    expect(second.lease_expiries).toBe(1);
    expect(second.lease_expires_at).toBe('2030-01-01T13:16:01.000Z'); // default 900 s
    const stale = await post(`/api/agent/runs/${first.id}/complete`, {
      claim_token: first.claim_token,
      caption: 'x',
    });
    expect([stale.status, stale.body.code]).toEqual([409, 'CLAIM_CONFLICT']);
  });

  it('the fifth lease expiry fails the run; removing the automation skips its pending runs', async () => {
    await sb.control.advance(3600_000);
    let runId = '';
    for (let i = 1; i <= 5; i += 1) {
      const c = (await claim({ automation_id: HOURLY, lease_seconds: 60 }))!;
      expect(c.lease_expiries).toBe(i - 1);
      runId = c.id;
      await sb.control.advance(60_000);
    }
    const run = await sb.api('GET', `/api/agent/runs/${runId}?executor_id=${IDS.executor}`);
    expect(run.body.run).toMatchObject({ state: 'failed', lease_expiries: 5 });
    expect(run.body.run.error).toContain('lease expired 5 times');

    await sb.control.advance(3600_000);
    expect((await sb.control.state()).runs).toEqual({ failed: 1, pending: 1 });
    const { id: _id, ...body } = legacy(HOURLY, {
      schedule: { cron: '15 * * * *', timezone: 'UTC' },
      status: 'removed',
    });
    expect((await sb.control.putAutomation(HOURLY, body)).status).toBe(200);
    await sb.control.advance(1000);
    expect((await sb.control.state()).runs).toEqual({ failed: 1, skipped: 1 });
  });

  it('complete publishes to instagram and completes; skip and fail close a claim; closed runs are not active', async () => {
    await sb.control.advance(3 * 3600_000);
    const [one, two, three] = [(await claim())!, (await claim())!, (await claim())!];

    const done = await post(`/api/agent/runs/${one.id}/complete`, {
      claim_token: one.claim_token,
      caption: 'Photo of the hour',
      media_urls: ['https://cdn.example.com/photo.jpg'],
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.run).toMatchObject({ state: 'completed' });
    expect(done.body.social_posts).toEqual([
      expect.objectContaining({ platform: 'instagram', status: 'posted', caption: 'Photo of the hour' }),
    ]);
    const twice = await post(`/api/agent/runs/${one.id}/complete`, {
      claim_token: one.claim_token,
      caption: 'x',
    });
    expect([twice.status, twice.body.code]).toEqual([409, 'RUN_CONFLICT']);
    const renewDone = await post(`/api/agent/runs/${one.id}/renew`, { claim_token: one.claim_token });
    expect([renewDone.status, renewDone.body.code]).toEqual([409, 'RUN_NOT_ACTIVE']);

    const skipped = await post(`/api/agent/runs/${two.id}/skip`, {
      claim_token: two.claim_token,
      reason: 'no photo',
    });
    expect(skipped.status).toBe(200);
    expect(skipped.body.run).toMatchObject({ state: 'skipped', result: { skip_reason: 'no photo' } });
    const skipAgain = await post(`/api/agent/runs/${two.id}/skip`, { claim_token: two.claim_token });
    expect(skipAgain.body.code).toBe('RUN_NOT_ACTIVE');

    const wrongFail = await post(`/api/agent/runs/${three.id}/fail`, {
      error: 'x',
      executor_id: IDS.executor,
      claim_token: one.claim_token,
    });
    expect([wrongFail.status, wrongFail.body.code]).toEqual([409, 'CLAIM_CONFLICT']);
    const failed = await post(`/api/agent/runs/${three.id}/fail`, {
      error: 'camera offline',
      executor_id: IDS.executor,
      claim_token: three.claim_token,
    });
    expect(failed.status).toBe(200);
    expect(failed.body.run).toMatchObject({ state: 'failed', error: 'camera offline' });
    const failAgain = await post(`/api/agent/runs/${three.id}/fail`, {
      error: 'x',
      executor_id: IDS.executor,
      claim_token: three.claim_token,
    });
    expect([failAgain.status, failAgain.body.code]).toEqual([409, 'RUN_NOT_ACTIVE']);
    expect((await sb.control.state()).runs).toEqual({ completed: 1, skipped: 1, failed: 1 });
  });

  it('a pending run cannot be failed, a local run is not the queue’s, and another owner sees 404', async () => {
    await sb.control.advance(3600_000);
    const pending = await sb.api('POST', '/api/agent/runs/claim', { body: { automation_id: BERLIN } });
    expect(pending.body.run).toBeNull();
    const c = (await claim())!;
    const foreign = await post(`/api/agent/runs/${c.id}/renew`, { claim_token: c.claim_token }, TEST_KEYS.b);
    expect(foreign.status).toBe(404);
    await post(`/api/agent/runs/${c.id}/skip`, { claim_token: c.claim_token });

    await sb.control.advance(3600_000);
    const pendingRun = (await claim())!;
    await sb.control.advance(901_000);
    const notActive = await post(`/api/agent/runs/${pendingRun.id}/fail`, {
      error: 'x',
      executor_id: IDS.executor,
      claim_token: pendingRun.claim_token,
    });
    expect([notActive.status, notActive.body.code]).toEqual([409, 'RUN_NOT_ACTIVE']);

    const local = await sb.api('POST', `/api/agent/automations/${LOCAL}/start`, {
      body: { executor_id: IDS.executor, revision: 1, idempotency_key: 'l1' },
    });
    expect(local.status).toBe(200);
    const renewLocal = await post(`/api/agent/runs/${local.body.run.id}/renew`, { claim_token: 'pdct_x' });
    expect([renewLocal.status, renewLocal.body.code]).toEqual([409, 'WRONG_EXECUTION_MODE']);
    const completeLegacyLocally = await sb.api('POST', `/api/agent/runs/${pendingRun.id}/complete-local`, {
      body: { caption: 'x' },
    });
    expect([completeLegacyLocally.status, completeLegacyLocally.body.code]).toEqual([
      409,
      'WRONG_EXECUTION_MODE',
    ]);
  });
});
