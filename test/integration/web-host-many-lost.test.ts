import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import type { PostsChanged } from '../../src-shared/ipc/posts';
import type { ChangeOutcome } from '../../src-shared/ipc/post-groups';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import { CONFIRMS_ADDRESS } from '../helpers/confirm';
import { loseAnswers, sandboxForTrials } from '../helpers/crash-trials';
import { FIXTURE_NOW, IDS, TEST_KEYS, demoFixture } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { scaled } from '../helpers/timeouts';

/**
 * The app's many-at-once actions (the `postGroups` channels), through the real web host over its WebSocket, while
 * the service drops half its answers after committing (`reset_rate`): a move of many posts, then a cancel and a
 * delete of some, each one by one. Every post must move exactly once, every cancel and delete be done once, and no
 * change the service applied may come back as a refusal. The page hears each change from the one change feed.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const N = 90;

// Started first and so closed last (after hooks run in reverse): the host below talks to it.
const trials = sandboxForTrials(demoFixture());
let host: TestWebHost;
let page: WsBridge;

beforeAll(async () => {
  const { sb } = trials;
  host = await startTestWebHost('postdesk-web-many-lost-', { confirm: CONFIRMS_ADDRESS });
  page = host.page;
  const connected = await page.bridge.connection.connect({ base_url: sb.url, api_key: TEST_KEYS.a });
  expect(connected.ok).toBe(true);
});

afterAll(async () => {
  await host?.close();
});

async function scheduledTimes(): Promise<Map<string, number>> {
  const { sb } = trials;
  const res = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=scheduled&limit=100');
  return new Map(res.body.posts.map((d) => [d.post_id, Date.parse(d.scheduled_at!)]));
}

/** Asks again, as the screen's "Retry" does, what came back unknown, until nothing is unknown. */
async function untilAnswered(
  first: ChangeOutcome[],
  again: (ids: string[], unknown: ChangeOutcome[]) => Promise<ChangeOutcome[]>,
): Promise<{ outcomes: Map<string, ChangeOutcome>; unknownSeen: number }> {
  const outcomes = new Map(first.map((o) => [o.post_id, o]));
  let unknownSeen = 0;
  for (let round = 0; round < 8; round++) {
    const unknown = [...outcomes.values()].filter((o) => o.unknown);
    if (unknown.length === 0) break;
    unknownSeen += unknown.length;
    for (const o of await again(
      unknown.map((o) => o.post_id),
      unknown,
    ))
      outcomes.set(o.post_id, o);
  }
  return { outcomes, unknownSeen };
}

it(
  `moves ${N} posts at once exactly once, and cancels and deletes some once, while answers are lost`,
  async () => {
    const { sb } = trials;
    const at = (ms: number) => new Date(Date.parse(FIXTURE_NOW) + ms).toISOString();
    const items = Array.from({ length: N }, (_, i) => ({
      item_key: `k${i}`,
      caption: `many lost ${i}`,
      targets: [{ platform: 'x' as const, social_account_id: IDS.accounts.x }],
      scheduled_at: at(DAY + i * HOUR),
    }));
    const seeded = await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id: randomUUID(), items } });
    expect(seeded.status).toBe(201);
    const before = await scheduledTimes();
    expect(before.size).toBe(N);
    const ids = [...before.keys()];

    // The list the person selects from: the index learns the posts from the service.
    const listed = await page.bridge.posts.list({ refresh: true, limit: 1000 });
    expect(listed.ok).toBe(true);
    const groups = await page.bridge.postGroups.list({ limit: 1000 });
    expect(groups.ok && groups.value.groups.length).toBe(N);

    const told = new Set<string>();
    page.bridge.posts.onDidChange((c: PostsChanged) => c.post_ids?.forEach((id) => told.add(id)));

    // 1. Move all of them by a day, with half the bulk answers lost after the service committed.
    await loseAnswers(sb, { paths: ['/api/cli/posts'], rate: 0.5, seed: 7 });
    const moved = await page.bridge.postGroups.changeMany({
      post_ids: ids,
      change: { kind: 'shift', by_ms: DAY },
    });
    expect(moved.ok, JSON.stringify(moved)).toBe(true);
    if (!moved.ok) return;
    const requests = moved.value.requests;
    const move = await untilAnswered(moved.value.outcomes, async (_, unknown) => {
      const r = await page.bridge.postGroups.retry({ updates: unknown.map((o) => o.update!) });
      expect(r.ok).toBe(true);
      return r.ok ? r.value.outcomes : [];
    });
    for (const o of move.outcomes.values()) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });

    // 2. Cancel ten and delete ten, one by one (the contract has no bulk form), answers still lost half the time.
    const toCancel = ids.slice(0, 10);
    const toDelete = ids.slice(10, 20);
    const many = (post_ids: string[], kind: 'cancel' | 'delete') =>
      page.bridge.postGroups.changeMany({ post_ids, change: { kind } }).then((r) => {
        expect(r.ok, JSON.stringify(r)).toBe(true);
        return r.ok ? r.value.outcomes : [];
      });
    const cancel = await untilAnswered(await many(toCancel, 'cancel'), (left) => many(left, 'cancel'));
    const del = await untilAnswered(await many(toDelete, 'delete'), (left) => many(left, 'delete'));
    await loseAnswers(sb, null);

    // Nothing the service applied came back as a refusal.
    for (const o of [...cancel.outcomes.values(), ...del.outcomes.values()])
      expect(o, JSON.stringify(o)).toMatchObject({ ok: true, error: null });

    // Exactly once, on the service: each moved post a day later (never two), each cancel a draft, each delete gone.
    const now = await scheduledTimes();
    for (const id of ids.slice(20)) expect(now.get(id), `post ${id}`).toBe(before.get(id)! + DAY);
    const drafts = (await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=draft&limit=100')).body
      .posts;
    expect(new Set(drafts.map((d) => d.post_id))).toEqual(new Set(toCancel));
    expect(await sb.control.state()).toMatchObject({ deliveries: { scheduled: N - 20, draft: 10 } });

    // The faults bit: answers were lost and asked again (more bulk requests than one), or left unknown and retried.
    expect(requests + move.unknownSeen).toBeGreaterThan(1);
    expect(cancel.unknownSeen + del.unknownSeen + requests).toBeGreaterThan(1);

    // The page heard every post it changed from the one change feed, and its list shows what the service holds.
    await expect.poll(() => told.size).toBe(N);
    const after = await page.bridge.postGroups.list({ limit: 1000 });
    expect(after.ok && after.value.groups.length).toBe(N - 10);
  },
  scaled(120_000),
);
