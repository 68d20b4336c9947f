import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CreatePostResponse,
  ListPostsResponse,
  ListAccountsResponse,
  UpdatePostResponse,
} from '../../src-shared/api';
import { FIXTURE_NOW, IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset(demoFixture({ publishFailures: { linkedin: 1, tiktok: 5 } })));

const at = (minutes: number) => new Date(Date.parse(FIXTURE_NOW) + minutes * 60_000).toISOString();
const target = (p: keyof typeof IDS.accounts) => ({ social_account_id: IDS.accounts[p], platform: p });

describe('accounts', () => {
  it('lists the owner accounts newest first', async () => {
    const res = await sb.api('GET', '/api/cli/accounts');
    expect(res.status).toBe(200);
    const { accounts } = ListAccountsResponse.parse(res.body);
    expect(accounts.map((a) => a.platform)).toEqual(['x', 'linkedin', 'youtube', 'instagram', 'tiktok']);
    expect(accounts.map((a) => a.id)).not.toContain(IDS.accountB);
  });
});

describe('POST /api/cli/posts', () => {
  it('creates a draft with one delivery per target', async () => {
    const res = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'draft', action: 'draft', targets: [target('x'), target('instagram')] },
    });
    expect(res.status).toBe(201);
    const body = CreatePostResponse.parse(res.body);
    expect(body.social_posts).toHaveLength(2);
    expect(body.social_posts.every((d) => d.status === 'draft' && d.post_id === body.post.id)).toBe(true);
  });

  it('schedules with scheduled_at and publishes when the clock reaches it', async () => {
    const res = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'later', scheduled_at: at(30), targets: [target('x')] },
    });
    const [delivery] = CreatePostResponse.parse(res.body).social_posts;
    expect(delivery?.status).toBe('scheduled');
    await sb.control.advance(29 * 60_000);
    expect((await sb.api('GET', '/api/cli/posts?status=scheduled')).body.posts).toHaveLength(1);
    await sb.control.advance(60_000);
    const posted = ListPostsResponse.parse((await sb.api('GET', '/api/cli/posts')).body).posts[0];
    expect(posted).toMatchObject({ id: delivery?.id, status: 'posted', published_at: at(30), attempts: 1 });
  });

  it('publishes immediately without action and scheduled_at: posted, or retry_scheduled on a failing account', async () => {
    const ok = CreatePostResponse.parse(
      (await sb.api('POST', '/api/cli/posts', { body: { caption: 'now', targets: [target('x')] } })).body,
    );
    expect(ok.social_posts[0]).toMatchObject({ status: 'posted', published_at: FIXTURE_NOW });
    const retry = CreatePostResponse.parse(
      (await sb.api('POST', '/api/cli/posts', { body: { caption: 'now', targets: [target('linkedin')] } }))
        .body,
    );
    expect(retry.social_posts[0]).toMatchObject({
      status: 'retry_scheduled',
      attempts: 1,
      next_attempt_at: at(5),
    });
    expect(retry.social_posts[0]?.last_error).toMatch(/simulated linkedin failure/);
    await sb.control.advance(5 * 60_000);
    const after = (await sb.api('GET', '/api/cli/posts?platform=linkedin')).body.posts[0];
    expect(after).toMatchObject({ status: 'posted', attempts: 2, last_error: null });
  });

  it('fails a delivery after 3 attempts 5 minutes apart, keeping last_error', async () => {
    await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'doomed', scheduled_at: at(10), targets: [target('tiktok')] },
    });
    await sb.control.advance(10 * 60_000);
    expect((await sb.api('GET', '/api/cli/posts')).body.posts[0]).toMatchObject({
      status: 'retry_scheduled',
      attempts: 1,
    });
    await sb.control.advance(60 * 60_000);
    const failed = (await sb.api('GET', '/api/cli/posts')).body.posts[0];
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null });
    expect(failed.last_error).toMatch(/attempt 3 of 3/);
  });

  it('refuses youtube with a clear 400 {error, issues}', async () => {
    const res = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'yt', targets: [target('youtube')] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBeUndefined();
    expect(res.body.issues['targets.0.platform']).toMatch(/youtube cannot be published or scheduled/);
  });

  it('names the field and the limit in a 400', async () => {
    const res = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c'.repeat(2201), targets: [target('x')] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('caption: must be at most 2200 characters');
    expect(res.body.issues).toEqual({ caption: 'must be at most 2200 characters' });
    const many = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', targets: Array.from({ length: 13 }, () => target('x')) },
    });
    expect(many.body.error).toBe('targets: must be at most 12 items');
  });

  it('checks that each account is the owner’s and of the target platform', async () => {
    const foreign = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', targets: [{ social_account_id: IDS.accountB, platform: 'x' }] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.issues['targets.0.social_account_id']).toBe('no connected account with this id');
    const mismatch = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', targets: [{ social_account_id: IDS.accounts.x, platform: 'linkedin' }] },
    });
    expect(mismatch.body.issues['targets.0.platform']).toMatch(/is a x account, not linkedin/);
    const twice = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', targets: [target('x'), target('x')] },
    });
    expect(twice.body.issues['targets.1.social_account_id']).toMatch(/already a target/);
    const past = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'c', scheduled_at: at(-1), targets: [target('x')] },
    });
    expect(past.body.issues.scheduled_at).toMatch(/must be in the future/);
    const state = await sb.control.state();
    expect(state.posts).toBe(0);
  });
});

describe('GET /api/cli/posts', () => {
  it('filters by status and platform, limits, and lists newest first', async () => {
    for (let i = 0; i < 3; i++) {
      await sb.api('POST', '/api/cli/posts', {
        body: { caption: `d${i}`, action: 'draft', targets: [target('x')] },
      });
    }
    await sb.api('POST', '/api/cli/posts', {
      body: { caption: 's', scheduled_at: at(5), targets: [target('instagram')] },
    });
    const all = ListPostsResponse.parse((await sb.api('GET', '/api/cli/posts')).body).posts;
    expect(all.map((p) => p.caption)).toEqual(['s', 'd2', 'd1', 'd0']);
    expect(
      (await sb.api('GET', '/api/cli/posts?status=draft&limit=2')).body.posts.map(
        (p: { caption: string }) => p.caption,
      ),
    ).toEqual(['d2', 'd1']);
    expect((await sb.api('GET', '/api/cli/posts?platform=instagram')).body.posts).toHaveLength(1);
    const bad = await sb.api('GET', '/api/cli/posts?limit=101');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('limit: must be at most 100');
    expect((await sb.api('GET', '/api/cli/posts?platform=myspace')).status).toBe(400);
  });
});

describe('PATCH /api/cli/posts', () => {
  const schedule = async () =>
    CreatePostResponse.parse(
      (
        await sb.api('POST', '/api/cli/posts', {
          body: { caption: 'orig', scheduled_at: at(60), targets: [target('x'), target('instagram')] },
        })
      ).body,
    );

  it('updates every still-scheduled delivery of the parent, by delivery id or parent id', async () => {
    const created = await schedule();
    const byDelivery = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.social_posts[0]!.id, caption: 'new' },
    });
    expect(byDelivery.status).toBe(200);
    const updated = UpdatePostResponse.parse(byDelivery.body);
    expect(updated.post_id).toBe(created.post.id);
    expect(updated.social_posts.map((d) => d.caption)).toEqual(['new', 'new']);
    const moved = UpdatePostResponse.parse(
      (await sb.api('PATCH', '/api/cli/posts', { body: { id: created.post.id, scheduled_time: at(90) } }))
        .body,
    );
    expect(moved.social_posts.map((d) => d.scheduled_at)).toEqual([at(90), at(90)]);
  });

  it('cancels to draft, reschedules, and adds targets in the post’s state', async () => {
    const created = await schedule();
    const drafted = UpdatePostResponse.parse(
      (await sb.api('PATCH', '/api/cli/posts', { body: { id: created.post.id, status: 'draft' } })).body,
    );
    expect(drafted.social_posts.map((d) => d.status)).toEqual(['draft', 'draft']);
    await sb.control.advance(120 * 60_000);
    expect((await sb.api('GET', '/api/cli/posts?status=posted')).body.posts).toHaveLength(0);
    const resched = UpdatePostResponse.parse(
      (
        await sb.api('PATCH', '/api/cli/posts', {
          body: { id: created.post.id, status: 'scheduled', scheduled_at: at(180) },
        })
      ).body,
    );
    expect(resched.social_posts.map((d) => d.status)).toEqual(['scheduled', 'scheduled']);
    const added = UpdatePostResponse.parse(
      (
        await sb.api('PATCH', '/api/cli/posts', {
          body: { id: created.post.id, add_targets: [target('linkedin')] },
        })
      ).body,
    );
    expect(added.social_posts).toHaveLength(3);
    expect(added.social_posts[2]).toMatchObject({
      platform: 'linkedin',
      status: 'scheduled',
      scheduled_at: at(180),
    });
  });

  it('answers 400 INVALID_POST_UPDATE naming the field and limit, and 404 for unknown or foreign ids', async () => {
    const created = await schedule();
    const past = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, scheduled_at: at(-5) },
    });
    expect(past).toMatchObject({ status: 400, body: { code: 'INVALID_POST_UPDATE' } });
    expect(past.body.error).toMatch(/scheduled_at: must be in the future/);
    const long = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, caption: 'c'.repeat(2201) },
    });
    expect(long.body).toEqual({
      error: 'caption: must be at most 2200 characters',
      code: 'INVALID_POST_UPDATE',
    });
    const tooMany = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, add_targets: Array.from({ length: 13 }, () => target('linkedin')) },
    });
    expect(tooMany.body).toEqual({
      error: 'add_targets: must be at most 12 items',
      code: 'INVALID_POST_UPDATE',
    });
    const empty = await sb.api('PATCH', '/api/cli/posts', { body: { id: created.post.id } });
    expect(empty.body.code).toBe('INVALID_POST_UPDATE');
    const yt = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, add_targets: [target('youtube')] },
    });
    expect(yt.body.code).toBe('INVALID_POST_UPDATE');
    expect((await sb.api('PATCH', '/api/cli/posts', { body: { id: 'nope', caption: 'x' } })).status).toBe(
      404,
    );
    const foreign = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, caption: 'x' },
      key: 'pd_test_owner_b_valid_key_000000001',
    });
    expect(foreign.status).toBe(404);
    await sb.control.advance(61 * 60_000);
    const posted = await sb.api('PATCH', '/api/cli/posts', {
      body: { id: created.post.id, caption: 'late' },
    });
    expect(posted.body.code).toBe('INVALID_POST_UPDATE');
  });
});

describe('DELETE /api/cli/posts', () => {
  it('removes deletable deliveries and answers 409 for posted ones', async () => {
    const draft = CreatePostResponse.parse(
      (
        await sb.api('POST', '/api/cli/posts', {
          body: { caption: 'd', action: 'draft', targets: [target('x')] },
        })
      ).body,
    );
    const del = await sb.api('DELETE', '/api/cli/posts', { body: { id: draft.social_posts[0]!.id } });
    expect(del).toMatchObject({ status: 200, body: { success: true } });
    expect((await sb.control.state()).posts).toBe(0);
    const posted = CreatePostResponse.parse(
      (await sb.api('POST', '/api/cli/posts', { body: { caption: 'p', targets: [target('x')] } })).body,
    );
    const conflict = await sb.api('DELETE', '/api/cli/posts', { body: { id: posted.social_posts[0]!.id } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('POST_NOT_DELETABLE');
    const failing = CreatePostResponse.parse(
      (await sb.api('POST', '/api/cli/posts', { body: { caption: 'r', targets: [target('linkedin')] } }))
        .body,
    );
    expect(
      (await sb.api('DELETE', '/api/cli/posts', { body: { id: failing.social_posts[0]!.id } })).status,
    ).toBe(200);
    expect(
      (
        await sb.api('DELETE', '/api/cli/posts', {
          body: { id: posted.social_posts[0]!.id },
          key: 'pd_test_owner_b_valid_key_000000001',
        })
      ).status,
    ).toBe(404);
    expect((await sb.api('DELETE', '/api/cli/posts', { body: {} })).body.error).toBe(
      'id: is required (string)',
    );
  });
});

describe('targets are judged by the store as it is now', () => {
  it('refuses an account a reset removed or changed, though it was used just before', async () => {
    // Accounts are kept once read (src-sandbox/db.ts, keptReads); each reset must be seen by the next post.
    const create = () =>
      sb.api('POST', '/api/cli/posts', { body: { caption: 'c', action: 'draft', targets: [target('x')] } });
    expect((await create()).status).toBe(201);

    const without = demoFixture() as { owners: { accounts: { id: string; platform: string }[] }[] };
    without.owners[0]!.accounts = without.owners[0]!.accounts.filter((a) => a.id !== IDS.accounts.x);
    await sb.control.reset(without as ReturnType<typeof demoFixture>);
    const gone = await create();
    expect(gone.status).toBe(400);
    expect(gone.body.issues).toEqual({ 'targets.0.social_account_id': 'no connected account with this id' });

    const moved = demoFixture() as { owners: { accounts: { id: string; platform: string }[] }[] };
    moved.owners[0]!.accounts = moved.owners[0]!.accounts.map((a) =>
      a.id === IDS.accounts.x
        ? { ...a, platform: 'linkedin' }
        : a.platform === 'linkedin'
          ? { ...a, id: randomUUID() }
          : a,
    );
    await sb.control.reset(moved as ReturnType<typeof demoFixture>);
    const other = await create();
    expect(other.status).toBe(400);
    expect(other.body.issues['targets.0.platform']).toMatch(/is a linkedin account, not x/);
  });
});
