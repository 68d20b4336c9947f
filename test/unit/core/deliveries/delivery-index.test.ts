import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { BulkItem } from '../../../../src-shared/api/bulk';
import { openDeliveryIndex, type DeliveryIndex } from '../../../../src-main/core/deliveries/delivery-index';
import { withDeliveryLearning } from '../../../../src-main/core/deliveries/learning-client';
import type { DeliveryLesson } from '../../../../src-main/core/deliveries/lessons';
import { openStore, type Store } from '../../../../src-main/core/store/store';

const STATUSES = ['draft', 'scheduled', 'retry_scheduled', 'posted', 'failed'] as const;
const PLATFORMS = ['tiktok', 'instagram', 'linkedin', 'x'] as const;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** Delivery n: created n minutes after T0 (so the highest n is the newest), scheduled 10,000 - n minutes after. */
function delivery(n: number, patch: Partial<Delivery> = {}): Delivery {
  return {
    id: `d-${n}`,
    post_id: `p-${Math.floor(n / 2)}`,
    status: STATUSES[n % STATUSES.length]!,
    platform: PLATFORMS[n % PLATFORMS.length]!,
    social_account_id: `acc-${n % PLATFORMS.length}`,
    caption: `caption ${n}`,
    scheduled_at: iso(T0 + (10_000 - n) * 60_000),
    published_at: null,
    last_error: null,
    created_at: iso(T0 + n * 60_000),
    updated_at: iso(T0 + n * 60_000),
    ...patch,
  };
}

let dir: string;
let store: Store;
let index: DeliveryIndex;
let clock = T0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-deliveries-'));
  store = openStore(join(dir, 'postdesk.db'));
  clock = T0;
  index = openDeliveryIndex(store, { now: () => clock });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the delivery index with 10,000 rows', () => {
  const all = Array.from({ length: 10_000 }, (_, n) => delivery(n));
  const ids = (items: readonly Delivery[]) => items.map((d) => d.id);

  beforeEach(() => {
    // As 100 list pages would arrive: newest first, 100 at a time.
    const newestFirst = [...all].reverse();
    for (let i = 0; i < newestFirst.length; i += 100) {
      index.learn('svc', { kind: 'records', deliveries: newestFirst.slice(i, i + 100) });
    }
  });

  it('pages newest first with a stable total, and every row exactly once', () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 10_000; offset += 700) {
      const page = index.queryDeliveries({ scope: 'svc', offset, limit: 700 });
      expect(page.total).toBe(10_000);
      seen.push(...ids(page.items));
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
    expect(seen.slice(0, 3)).toEqual(['d-9999', 'd-9998', 'd-9997']);
    expect(seen.at(-1)).toBe('d-0');
    const last = index.queryDeliveries({ scope: 'svc', offset: 9_990, limit: 100 });
    expect(ids(last.items)).toEqual(Array.from({ length: 10 }, (_, i) => `d-${9 - i}`));
  });

  it('filters by status and platform, alone and together', () => {
    const failed = index.queryDeliveries({ scope: 'svc', status: 'failed', limit: 10_000 });
    expect(failed.total).toBe(2_000);
    expect(failed.items.every((d) => d.status === 'failed')).toBe(true);
    const x = index.queryDeliveries({ scope: 'svc', platform: 'x', offset: 100, limit: 50 });
    expect(x.total).toBe(2_500);
    expect(ids(x.items)[0]).toBe(`d-${9999 - 100 * 4}`); // 9,999 % 4 === 3: the newest is an x
    const both = index.queryDeliveries({ scope: 'svc', status: 'posted', platform: 'tiktok', limit: 10_000 });
    // n % 5 === 3 and n % 4 === 0: every 20th from 8
    expect(both.total).toBe(500);
    expect(both.items.every((d) => d.status === 'posted' && d.platform === 'tiktok')).toBe(true);
    const two = index.queryDeliveries({ scope: 'svc', status: ['draft', 'failed'], limit: 1 });
    expect(two.total).toBe(4_000);
    expect(index.queryDeliveries({ scope: 'other' }).total).toBe(0);
  });

  it('answers a time range ordered by scheduled time', () => {
    const page = index.queryDeliveries({
      scope: 'svc',
      from: iso(T0 + 100 * 60_000),
      to: iso(T0 + 200 * 60_000),
      limit: 10_000,
    });
    expect(page.total).toBe(100);
    // scheduled 10,000 - n minutes after T0: n from 9,900 down to 9,801, earliest first
    expect(ids(page.items).slice(0, 2)).toEqual(['d-9900', 'd-9899']);
    const times = page.items.map((d) => Date.parse(d.scheduled_at ?? ''));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  // How fast these pages come back is measured by `npm run bench -- local`, beside a full scan.
  it('reads a filtered page through its index, with no sort of the whole table', () => {
    const plan = store.db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT raw FROM deliveries WHERE scope = ? AND status = ? ORDER BY created_ms DESC, seq DESC LIMIT 100',
      )
      .all('svc', 'failed') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('deliveries_status_newest');
    expect(plan.map((p) => p.detail).join(' ')).not.toContain('TEMP B-TREE');
  });

  it('keeps the newer record: an older answer does not overwrite, a newer one does', () => {
    index.learn('svc', {
      kind: 'records',
      deliveries: [delivery(5, { status: 'posted', updated_at: iso(T0 + 20_000 * 60_000) })],
    });
    index.learn('svc', { kind: 'records', deliveries: [delivery(5, { status: 'failed' })] });
    expect(index.get('svc', 'd-5')?.status).toBe('posted');
    expect(index.queryDeliveries({ scope: 'svc', status: 'posted', limit: 10_000 }).total).toBe(2_001);
  });

  it('removes a deleted delivery, or every delivery of a deleted post, and never brings it back', () => {
    index.learn('svc', { kind: 'removed', id: 'd-10' });
    index.learn('svc', { kind: 'removed', id: 'p-100' }); // d-200, d-201
    expect(index.count('svc')).toBe(9_997);
    expect(index.get('svc', 'd-201')).toBeNull();
    // a list answer that was already on its way when the delete landed
    index.learn('svc', { kind: 'records', deliveries: [delivery(10), delivery(200), delivery(201)] });
    expect(index.count('svc')).toBe(9_997);
  });

  it('forgets rows a complete unfiltered or per-platform list no longer shows, but not on a status list', () => {
    clock += 1000;
    const startedAt = clock;
    clock += 1000;
    const listed = [delivery(9_999), delivery(9_998)];
    index.learn('svc', {
      kind: 'records',
      deliveries: listed,
      listed: { query: { status: 'draft' }, startedAt },
    });
    expect(index.count('svc')).toBe(10_000);
    index.learn('svc', {
      kind: 'records',
      deliveries: [delivery(9_999)],
      listed: { query: { platform: 'x', limit: 100 }, startedAt },
    });
    expect(index.queryDeliveries({ scope: 'svc', platform: 'x' }).total).toBe(1);
    expect(index.count('svc')).toBe(7_501);
    index.learn('svc', { kind: 'records', deliveries: listed, listed: { query: { limit: 100 }, startedAt } });
    expect(index.count('svc')).toBe(2);
  });
});

describe('lessons from bulk answers', () => {
  const targets = [
    { social_account_id: '11111111-1111-4111-8111-111111111111', platform: 'x' as const },
    { social_account_id: '22222222-2222-4222-8222-222222222222', platform: 'linkedin' as const },
  ];
  const items: BulkItem[] = [
    { item_key: 'a', caption: 'scheduled one', targets, scheduled_at: '2030-02-01T10:00:00+01:00' },
    { item_key: 'b', caption: 'a draft', targets: [targets[1]!], action: 'draft' },
    { item_key: 'c', caption: 'refused', targets },
  ];
  const results = [
    {
      item_key: 'a',
      index: 0,
      status: 'created' as const,
      post_id: 'pa',
      social_post_ids: ['a1', 'a2'],
      error: null,
    },
    {
      item_key: 'b',
      index: 1,
      status: 'created' as const,
      post_id: 'pb',
      social_post_ids: ['b1'],
      error: null,
    },
    { item_key: 'c', index: 2, status: 'failed' as const, post_id: null, social_post_ids: [], error: 'no' },
  ];

  it('indexes one delivery per target, in target order, as scheduled or draft, then yields to the service record', () => {
    index.learn('svc', { kind: 'bulk', items, results });
    expect(index.count('svc')).toBe(3);
    expect(index.get('svc', 'a1')).toMatchObject({
      post_id: 'pa',
      status: 'scheduled',
      platform: 'x',
      social_account_id: targets[0]!.social_account_id,
      caption: 'scheduled one',
      scheduled_at: '2030-02-01T09:00:00.000Z',
    });
    expect(index.get('svc', 'a2')).toMatchObject({ platform: 'linkedin', status: 'scheduled' });
    expect(index.get('svc', 'b1')).toMatchObject({ status: 'draft', post_id: 'pb', scheduled_at: null });
    // newest first: the later item first, as the service lists
    expect(index.queryDeliveries({ scope: 'svc' }).items.map((d) => d.id)).toEqual(['b1', 'a2', 'a1']);

    // The service's own record replaces the pieced-together one even though our clock ran ahead of it.
    const real = delivery(1, { id: 'a1', post_id: 'pa', status: 'posted', updated_at: iso(T0 - 86_400_000) });
    index.learn('svc', { kind: 'records', deliveries: [real] });
    expect(index.get('svc', 'a1')).toMatchObject({ status: 'posted', caption: 'caption 1' });
    // ... and a replayed bulk answer does not take it back.
    index.learn('svc', { kind: 'bulk', items, results });
    expect(index.get('svc', 'a1')?.status).toBe('posted');
  });
});

describe('the learning client', () => {
  it('reports list, create, update, bulk and delete answers, and 404 deletes, and passes everything else through', async () => {
    const lessons: DeliveryLesson[] = [];
    const d = delivery(1);
    const fake = {
      baseUrl: 'https://svc.example',
      listPosts: async (_query?: unknown) => ({ posts: [d] }),
      createPost: async (_body: unknown) => ({
        post: { id: 'p', caption: '', created_at: d.created_at },
        social_posts: [d],
      }),
      updatePost: async (_body: unknown) => ({ post_id: 'p', social_posts: [d] }),
      deletePost: async (v: string | { id: string }) => {
        if ((typeof v === 'string' ? v : v.id) === 'gone') {
          const { ApiError } = await import('../../../../src-main/core/api/errors');
          throw new ApiError({ status: 404, code: null, message: 'not found', operation: 'deletePost' });
        }
        return { success: true };
      },
      listAccounts: async () => ({ accounts: [] }),
    };
    const client = withDeliveryLearning(fake, (l) => lessons.push(l));
    expect(client.baseUrl).toBe('https://svc.example');
    await client.listAccounts();
    await client.listPosts({ status: 'failed' });
    await client.createPost({ caption: '', targets: [] } as never);
    await client.updatePost({ id: 'p', caption: 'x' });
    await client.deletePost('d-1');
    await expect(client.deletePost({ id: 'gone' })).rejects.toThrow();
    expect(lessons.map((l) => l.kind)).toEqual(['records', 'records', 'records', 'removed', 'removed']);
    expect(lessons[0]).toMatchObject({ listed: { query: { status: 'failed' } } });
    expect(lessons.at(-1)).toEqual({ kind: 'removed', id: 'gone' });
  });
});

describe('the change feed: each lesson that changed something, told once and precisely', () => {
  it('tells new and changed records, not the ones that came back unchanged, and the removed with their posts', () => {
    const heard: unknown[] = [];
    index.onDidChange((c) => heard.push(c));
    index.learn('svc', { kind: 'records', deliveries: [delivery(10), delivery(11)] });
    expect(heard).toEqual([
      { scope: 'svc', source: 'answer', deliveries: [delivery(10), delivery(11)], removed: [] },
    ]);
    // The same records again (a refresh that found nothing new): nothing to tell.
    index.learn('svc', {
      kind: 'records',
      deliveries: [delivery(11), delivery(10)],
      listed: { query: { status: 'failed', limit: 100 }, startedAt: clock },
    });
    expect(heard).toHaveLength(1);
    const moved = delivery(10, { scheduled_at: iso(T0 + 99 * 60_000), updated_at: iso(T0 + 50 * 60_000) });
    index.learn('svc', { kind: 'records', deliveries: [moved] });
    expect(heard[1]).toEqual({ scope: 'svc', source: 'answer', deliveries: [moved], removed: [] });
    index.learn('svc', { kind: 'removed', id: 'p-5' });
    expect(heard[2]).toEqual({
      scope: 'svc',
      source: 'removed',
      deliveries: [],
      removed: expect.arrayContaining([
        { id: 'd-10', post_id: 'p-5' },
        { id: 'd-11', post_id: 'p-5' },
      ]),
    });
    expect(heard).toHaveLength(3);
  });
});
