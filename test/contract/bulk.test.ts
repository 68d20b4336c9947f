import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  it('applies each update independently with a result per update', async () => {
    const batch_id = randomUUID();
    const created = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id, items: [item(1), item(3)] },
    });
    const [a, b] = created.body.items as { post_id: string }[];
    const res = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: {
        updates: [
          { post_id: a!.post_id, caption: 'edited', scheduled_at: at(300) },
          { post_id: b!.post_id, scheduled_at: at(-10) },
          { post_id: 'missing', caption: 'x' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const body = BulkUpdateResponse.parse(res.body);
    expect(body).toMatchObject({ total: 3, updated_count: 1, failed_count: 2 });
    expect(body.results[0]?.social_posts?.[0]).toMatchObject({ caption: 'edited', scheduled_at: at(300) });
    expect(body.results[1]).toMatchObject({ ok: false, code: 'INVALID_POST_UPDATE' });
    expect(body.results[2]).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const tooLong = await sb.api('PATCH', '/api/cli/posts/bulk', {
      body: { updates: Array.from({ length: 101 }, () => ({ post_id: a!.post_id })) },
    });
    expect(tooLong.body.error).toBe('updates: must be at most 100 items');
  });
});
