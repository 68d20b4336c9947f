import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BulkUpdateRequest } from '../../../../src-shared/api/bulk';
import type { ApiClient } from '../../../../src-main/core/api/client';
import {
  applyEach,
  batches,
  parseShift,
  planShift,
  planSpread,
  updateInBatches,
} from '../../../../src-main/core/post-changes/bulk-update';
import { startClientSandbox, type ClientSandbox } from '../../../helpers/client-sandbox';
import { FIXTURE_NOW, IDS, demoFixture } from '../../../helpers/sandbox';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(FIXTURE_NOW) + ms).toISOString();

let cs: ClientSandbox;
beforeAll(async () => {
  cs = await startClientSandbox('pd-bulk-update-');
});
afterAll(() => cs.close());
beforeEach(() => cs.sb.control.reset(demoFixture()));

/** The client, counting the bulk update requests it sends and what each held. */
function counting(client: ApiClient) {
  const sent: BulkUpdateRequest[] = [];
  return {
    sent,
    client: {
      bulkUpdate: (body: BulkUpdateRequest) => {
        sent.push(body);
        return client.bulkUpdate(body);
      },
    },
  };
}

/** `n` scheduled posts to X and TikTok, an hour apart from tomorrow, through bulk create. */
async function scheduled(n: number): Promise<{ post_id: string; scheduled_at: string }[]> {
  const items = Array.from({ length: n }, (_, i) => ({
    item_key: `k${i}`,
    caption: `post ${i}`,
    targets: [
      { platform: 'x' as const, social_account_id: IDS.accounts.x },
      { platform: 'tiktok' as const, social_account_id: IDS.accounts.tiktok },
    ],
    scheduled_at: at(DAY + i * HOUR),
  }));
  const out: { post_id: string; scheduled_at: string }[] = [];
  for (const chunk of batches(items)) {
    const res = await cs.client.bulkCreate({ batch_id: randomUUID(), items: chunk });
    for (const item of res.items)
      out.push({ post_id: item.post_id!, scheduled_at: chunk[item.index]!.scheduled_at });
  }
  return out;
}

describe('changing many posts at once through the bulk update', () => {
  it('shifts 250 posts by a day in 3 requests of at most 100, each post moved once, one outcome per post', async () => {
    const posts = await scheduled(250);
    const spy = counting(cs.client);
    const progress: number[] = [];
    const plan = planShift(posts, DAY);
    expect(plan.skipped).toEqual([]);
    const outcomes = await updateInBatches(spy.client, plan.updates, (p) => progress.push(p.done));
    expect(spy.sent.map((b) => b.updates.length)).toEqual([100, 100, 50]);
    expect(progress).toEqual([100, 200, 250]);
    expect(outcomes.map((o) => o.post_id)).toEqual(posts.map((p) => p.post_id));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    // What the service holds now: every delivery of every post one day later.
    const listed = await cs.client.listPosts({ status: 'scheduled', platform: 'x', limit: 100 });
    for (const d of listed.posts) {
      const before = posts.find((p) => p.post_id === d.post_id)!;
      expect(Date.parse(d.scheduled_at!)).toBe(Date.parse(before.scheduled_at) + DAY);
    }
  });

  it('reports the one refused entry alone, and sending only that one again applies it', async () => {
    const posts = await scheduled(30);
    const plan = planShift(posts, DAY);
    // Made invalid after the plan: a draft has no schedule the bulk update can move.
    const broken = posts[7]!.post_id;
    await cs.client.updatePost({ id: broken, status: 'draft' });
    const spy = counting(cs.client);
    const first = await updateInBatches(spy.client, plan.updates);
    expect(spy.sent).toHaveLength(1);
    expect(first.filter((o) => !o.ok).map((o) => o.post_id)).toEqual([broken]);
    expect(first.find((o) => !o.ok)?.error).toMatch(/no scheduled delivery/);

    // Put right, then retried alone: the retry request carries that one entry, with the time planned at first.
    await cs.client.updatePost({ id: broken, status: 'scheduled', scheduled_at: at(2 * HOUR) });
    const failedIds = new Set(first.filter((o) => !o.ok).map((o) => o.post_id));
    const retry = await updateInBatches(
      spy.client,
      plan.updates.filter((u) => failedIds.has(u.post_id)),
    );
    expect(spy.sent).toHaveLength(2);
    expect(spy.sent[1]?.updates).toEqual([{ post_id: broken, scheduled_at: at(2 * DAY + 7 * HOUR) }]);
    expect(retry).toEqual([expect.objectContaining({ post_id: broken, ok: true })]);
    // The others were not moved a second time.
    const other = (await cs.client.listPosts({ status: 'scheduled', limit: 100 })).posts.find(
      (d) => d.post_id === posts[0]!.post_id,
    );
    expect(other?.scheduled_at).toBe(at(2 * DAY));
  });

  it('fails every entry of a request the service refused whole, and still sends the next batch', async () => {
    const posts = await scheduled(120);
    await cs.sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts/bulk'] });
    let calls = 0;
    const outcomes = await updateInBatches(
      {
        bulkUpdate: async (body) => {
          calls += 1;
          // The second request goes through: the fault is lifted after the first.
          if (calls === 2) await cs.sb.control.faults({});
          return cs.client.bulkUpdate(body);
        },
      },
      planShift(posts, HOUR).updates,
    );
    await cs.sb.control.faults({});
    expect(calls).toBeGreaterThanOrEqual(1);
    const bad = outcomes.filter((o) => !o.ok);
    expect(bad.length).toBe(100);
    expect(bad.every((o) => o.error && o.code)).toBe(true);
    expect(outcomes.slice(100).every((o) => o.ok)).toBe(true);
  });

  it('cancels to draft and deletes one by one, each with its own outcome', async () => {
    const posts = await scheduled(3);
    const list = (await cs.client.listPosts({ status: 'scheduled', limit: 100 })).posts;
    const drafts = await applyEach(
      [posts[0]!.post_id, 'no-such-post'],
      async (id) => (await cs.client.updatePost({ id, status: 'draft' })).social_posts,
    );
    expect(drafts[0]).toMatchObject({ ok: true });
    expect(drafts[0]?.deliveries.every((d) => d.status === 'draft')).toBe(true);
    expect(drafts[1]).toMatchObject({ ok: false, code: expect.any(String) });
    const ofSecond = list.filter((d) => d.post_id === posts[1]!.post_id).map((d) => d.id);
    const deleted = await applyEach(ofSecond, async (id) => {
      await cs.client.deletePost(id);
      return [];
    });
    expect(deleted.every((o) => o.ok)).toBe(true);
    const state = await cs.sb.control.state();
    expect(state.deliveries.scheduled).toBe(2);
  });
});

describe('plans', () => {
  it('parses a shift of days, hours or minutes, signed', () => {
    expect(parseShift('2d')).toBe(2 * DAY);
    expect(parseShift('-3h')).toBe(-3 * HOUR);
    expect(parseShift('+90m')).toBe(90 * 60_000);
    expect(parseShift('2 weeks')).toBeNull();
    expect(parseShift('')).toBeNull();
  });

  it('skips a post with no time when shifting, and spreads evenly in current order on whole minutes', () => {
    const shift = planShift(
      [
        { post_id: 'a', scheduled_at: at(0) },
        { post_id: 'b', scheduled_at: null },
      ],
      HOUR,
    );
    expect(shift.updates).toEqual([{ post_id: 'a', scheduled_at: at(HOUR) }]);
    expect(shift.skipped).toEqual([expect.objectContaining({ post_id: 'b', ok: false })]);

    const spread = planSpread(
      [
        { post_id: 'late', scheduled_at: at(5 * DAY) },
        { post_id: 'none', scheduled_at: null },
        { post_id: 'early', scheduled_at: at(DAY) },
      ],
      at(DAY),
      at(DAY + 2 * HOUR),
    );
    expect(spread.updates).toEqual([
      { post_id: 'early', scheduled_at: at(DAY) },
      { post_id: 'late', scheduled_at: at(DAY + HOUR) },
      { post_id: 'none', scheduled_at: at(DAY + 2 * HOUR) },
    ]);
  });
});
