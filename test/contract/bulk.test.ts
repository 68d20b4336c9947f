import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-main/core/api/client';
import { BulkResult, BulkUpdateResponse } from '../../src-shared/api';
import { FIXTURE_NOW, IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const at = (minutes: number) => new Date(Date.parse(FIXTURE_NOW) + minutes * 60_000).toISOString();
const item = (i: number, extra: Record<string, unknown> = {}) => ({
  item_key: `item-${i}`,
  caption: `caption ${i}`,
  targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
  ...(i % 2 === 0 ? { action: 'draft' } : { scheduled_at: at(60 + i) }),
  ...extra,
});

describe('POST /api/cli/posts/bulk', () => {
  it('creates up to 100 drafts and schedules, and an identical retry creates nothing', async () => {
    const body = { batch_id: randomUUID(), items: Array.from({ length: 100 }, (_, i) => item(i)) };
    const first = await sb.api('POST', '/api/cli/posts/bulk', { body });
    expect(first.status).toBe(201);
    const result = BulkResult.parse(first.body);
    expect(result).toMatchObject({ total: 100, created_count: 100, failed_count: 0 });
    expect(await sb.control.state()).toMatchObject({
      posts: 100,
      deliveries: { draft: 50, scheduled: 50 },
      batches: 1,
    });
    const again = await sb.api('POST', '/api/cli/posts/bulk', { body });
    expect(again.status).toBe(201);
    expect(again.body.items).toEqual(first.body.items);
    expect(again.body.replayed_count).toBe(100);
    expect((await sb.control.state()).posts).toBe(100);
  });

  it('answers 409 for a changed item under a used key, applying nothing of that request', async () => {
    const batch_id = randomUUID();
    await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id, items: [item(0), item(1)] } });
    const res = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: [item(2), item(1, { caption: 'changed' })] },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BULK_IDEMPOTENCY_CONFLICT');
    expect((await sb.control.state()).posts).toBe(2);
  });

  it('creates nothing twice when identical requests race', async () => {
    const body = { batch_id: randomUUID(), items: Array.from({ length: 20 }, (_, i) => item(i)) };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => sb.api('POST', '/api/cli/posts/bulk', { body })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const ids = new Set(
      answers.map((a) => JSON.stringify(a.body.items.map((i: { post_id: string }) => i.post_id))),
    );
    expect(ids.size).toBe(1);
    expect((await sb.control.state()).posts).toBe(20);
  });

  it('rejects invalid batches with 400 naming the field and the limit', async () => {
    const tooMany = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: randomUUID(), items: Array.from({ length: 101 }, (_, i) => item(i)) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('items: must be at most 100 items');
    const now = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: randomUUID(), items: [{ item_key: 'a', caption: 'c', targets: item(0).targets }] },
    });
    expect(now.body.error).toMatch(/bulk cannot publish now/);
    const byUrl = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: randomUUID(), items: [item(0, { media: [{ url: 'https://example.com/a.png' }] })] },
    });
    expect(byUrl.status).toBe(400);
    expect(byUrl.body.error).toMatch(/^items\.0\.media\.0\.asset_id: is required/);
    const notUuid = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: 'b1', items: [item(0)] },
    });
    expect(notUuid.body.error).toBe('batch_id: must be a valid uuid');
    const dup = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: randomUUID(), items: [item(0), item(0)] },
    });
    expect(dup.body.error).toMatch(/items\.1\.item_key: duplicate key/);
    expect((await sb.control.state()).posts).toBe(0);
  });

  it('records an item with a foreign account, unknown asset or youtube target as failed', async () => {
    const batch_id = randomUUID();
    const res = await sb.api('POST', '/api/cli/posts/bulk', {
      body: {
        batch_id,
        items: [
          item(0, { targets: [{ social_account_id: IDS.accountB, platform: 'x' }] }),
          item(1, { media: [{ asset_id: randomUUID() }] }),
          item(2, { targets: [{ social_account_id: IDS.accounts.youtube, platform: 'youtube' }] }),
          item(3),
        ],
      },
    });
    expect(res.body).toMatchObject({ created_count: 1, failed_count: 3 });
    expect(res.body.items.map((i: { status: string }) => i.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'created',
    ]);
    expect(res.body.items[1].error).toMatch(/media\.0\.asset_id/);
  });
});

describe('a batch sent in more than one request', () => {
  it('numbers new items after those it holds, and replays held ones with their own index', async () => {
    const batch_id = randomUUID();
    const first = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: [item(0), item(1), item(2)] },
    });
    expect(first.body.items.map((i: { index: number }) => i.index)).toEqual([0, 1, 2]);
    const second = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: [item(3), item(1), item(4)] },
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ created_count: 3, replayed_count: 1 });
    expect(second.body.items.map((i: { item_key: string; index: number }) => [i.item_key, i.index])).toEqual([
      ['item-3', 3],
      ['item-1', 1],
      ['item-4', 4],
    ]);
    const all = BulkResult.parse((await sb.api('GET', `/api/cli/posts/bulk?batch_id=${batch_id}`)).body);
    expect(all.items.map((i) => i.item_key)).toEqual(['item-0', 'item-1', 'item-2', 'item-3', 'item-4']);
  });
});

describe('GET /api/cli/posts/bulk', () => {
  it('pages the batch with offset and limit; a foreign batch reads as empty', async () => {
    const batch_id = randomUUID();
    await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: Array.from({ length: 5 }, (_, i) => item(i)) },
    });
    const page = BulkResult.parse(
      (await sb.api('GET', `/api/cli/posts/bulk?batch_id=${batch_id}&offset=2&limit=2`)).body,
    );
    expect(page).toMatchObject({ total: 5, offset: 2, limit: 2, created_count: 5 });
    expect(page.items.map((i) => i.item_key)).toEqual(['item-2', 'item-3']);
    expect(page.next).toBe(`/api/cli/posts/bulk?batch_id=${batch_id}&offset=4&limit=2`);
    const last = BulkResult.parse((await sb.api('GET', page.next!)).body);
    expect(last.items.map((i) => i.index)).toEqual([4]);
    expect(last.next).toBeNull();
    const foreign = await sb.api('GET', `/api/cli/posts/bulk?batch_id=${batch_id}`, { key: TEST_KEYS.b });
    expect(foreign.body).toMatchObject({ total: 0, items: [] });
    expect((await sb.api('GET', `/api/cli/posts/bulk?batch_id=${batch_id}&limit=0`)).body.error).toBe(
      'limit: must be at least 1',
    );
  });
});

describe('PATCH /api/cli/posts/bulk', () => {
  const twoScheduled = async (): Promise<[string, string]> => {
    const created = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: randomUUID(), items: [item(1), item(3)] },
    });
    const [a, b] = created.body.items as { post_id: string }[];
    return [a!.post_id, b!.post_id];
  };

  it('applies each update independently with a result per update', async () => {
    const [a, b] = await twoScheduled();
    const res = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: {
        updates: [
          { post_id: a, caption: 'edited', scheduled_at: at(300) },
          { post_id: b, scheduled_at: at(-10) },
          { post_id: 'missing', caption: 'x' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = BulkUpdateResponse.parse(res.body);
    expect(body).toMatchObject({ total: 3, updated_count: 1, failed_count: 2 });
    expect(body.results[0]?.social_posts?.[0]).toMatchObject({ caption: 'edited', scheduled_at: at(300) });
    expect(body.results[1]).toMatchObject({ index: 1, ok: false, status: 400, code: 'INVALID_POST_UPDATE' });
    expect(body.results[2]).toMatchObject({ index: 2, ok: false, status: 404, code: 'NOT_FOUND' });
  });

  it('fails an over-long caption, too many targets, an unknown post or a past time alone, and applies the rest', async () => {
    const [a, b] = await twoScheduled();
    const thirteen = Array.from({ length: 13 }, () => ({ social_account_id: IDS.accounts.x, platform: 'x' }));
    const res = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: {
        updates: [
          { post_id: a, caption: 'c'.repeat(2201) },
          { post_id: a, add_targets: thirteen },
          { post_id: randomUUID(), caption: 'nobody' },
          { post_id: b, scheduled_at: at(-1) },
          { post_id: a, caption: 'applied' },
          { caption: 'no post id' },
          'not an entry',
          { post_id: b, scheduled_at: at(500) },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = BulkUpdateResponse.parse(res.body);
    expect(body).toMatchObject({ total: 8, updated_count: 2, failed_count: 6 });
    expect(body.results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(body.results.map((r) => r.ok)).toEqual([false, false, false, false, true, false, false, true]);
    expect(body.results[0]).toMatchObject({
      post_id: a,
      status: 400,
      code: 'INVALID_POST_UPDATE',
      error: 'caption: must be at most 2200 characters',
    });
    expect(body.results[1]).toMatchObject({ status: 400, error: 'add_targets: must be at most 12 items' });
    expect(body.results[2]).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(body.results[3]).toMatchObject({
      status: 400,
      error: expect.stringMatching(/must be in the future/),
    });
    expect(body.results[5]).toMatchObject({
      post_id: null,
      status: 400,
      error: 'post_id: is required (string)',
    });
    expect(body.results[6]).toMatchObject({ post_id: null, status: 400 });
    expect(body.next).toMatch(/^6 update\(s\) were not applied/);

    // What the service now holds: the valid entries, and nothing of the refused ones.
    const posts = (await sb.api('GET', '/api/cli/posts?limit=100')).body.posts as {
      post_id: string;
      caption: string;
      scheduled_at: string;
    }[];
    expect(posts).toHaveLength(2);
    expect(posts.find((p) => p.post_id === a)).toMatchObject({ caption: 'applied', scheduled_at: at(61) });
    expect(posts.find((p) => p.post_id === b)).toMatchObject({ caption: 'caption 3', scheduled_at: at(500) });
  });

  it('reaches the client typed, each entry with its own result', async () => {
    const [a] = await twoScheduled();
    const client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a });
    try {
      const res = await client.bulkUpdate({
        updates: [
          { post_id: randomUUID(), caption: 'nobody' },
          { post_id: a, caption: 'through the client' },
        ],
      });
      expect(res.results).toEqual([
        expect.objectContaining({ index: 0, ok: false, status: 404, code: 'NOT_FOUND' }),
        expect.objectContaining({ index: 1, post_id: a, ok: true }),
      ]);
      expect(res.results[1]?.social_posts?.[0]?.caption).toBe('through the client');
    } finally {
      await client.close();
    }
  });

  it('refuses whole only a body that is not an update list, or with 0 or more than 100 entries', async () => {
    const [a] = await twoScheduled();
    const cases: [unknown, string][] = [
      [
        { updates: Array.from({ length: 101 }, () => ({ post_id: a })) },
        'updates: must be at most 100 items',
      ],
      [{ updates: [] }, 'updates: must have at least 1 item'],
      [{ updates: { post_id: a } }, 'updates: must be array (got object)'],
      [[{ post_id: a, caption: 'x' }], 'body: must be object (got array)'],
    ];
    for (const [body, error] of cases) {
      const res = await sb.api('PATCH', '/api/cli/posts/bulk', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error, code: 'VALIDATION_FAILED' });
    }
    const posts = (await sb.api('GET', '/api/cli/posts?limit=100')).body.posts as { caption: string }[];
    expect(posts.map((p) => p.caption).sort()).toEqual(['caption 1', 'caption 3']);
  });
});
