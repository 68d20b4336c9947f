import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../src-main/core/api/client';
import { createOutbox } from '../../src-main/core/outbox/outbox';
import { openStore } from '../../src-main/core/store/store';
import type { CreatePostRequest } from '../../src-shared/api/posts';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  // Real time, so schedules in 2099 are in the future.
  sb = await startTestSandbox(demoFixture({ now: null }));
  dir = mkdtempSync(join(tmpdir(), 'pd-faults-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const target = (platform: 'x' | 'linkedin' | 'instagram') => ({
  platform,
  social_account_id: IDS.accounts[platform],
});

it('under 20% errors and 20% connection resets, scripted creates end with exactly the intended posts', async () => {
  const store = openStore(join(dir, 'store.db'));
  const client = createApiClient({
    baseUrl: sb.url,
    apiKey: TEST_KEYS.a,
    retry: { retries: 3, minTimeoutMs: 5, maxTimeoutMs: 20 },
  });
  const outbox = createOutbox(store, client, { settleMs: 100, retryBaseMs: 10, retryMaxMs: 20 });

  const script: CreatePostRequest[] = [];
  for (let i = 0; i < 10; i++)
    script.push({ caption: `draft ${i}`, action: 'draft', targets: [target('x')] });
  for (let i = 0; i < 10; i++) {
    script.push({
      caption: `schedule ${i}`,
      scheduled_at: `2099-01-0${1 + (i % 9)}T10:00:00Z`,
      targets: [target('linkedin')],
    });
  }
  for (let i = 0; i < 8; i++) script.push({ caption: `now ${i}`, targets: [target('instagram')] });
  // Two identical publishes: both must exist, neither twice.
  script.push({ caption: 'twin', targets: [target('x')] }, { caption: 'twin', targets: [target('x')] });

  const seen = new Map<string, number>();
  outbox.onDidChange((e) => seen.set(e.state, (seen.get(e.state) ?? 0) + 1));
  await sb.control.faults({ error_rate: 0.2, reset_rate: 0.2, seed: 7 });
  const ids = script.map((r) => outbox.enqueuePost(r).entryId);
  for (let round = 0; round < 200 && outbox.unfinishedCount() > 0; round++) {
    await outbox.flush({ force: true });
    if (outbox.unfinishedCount() > 0) await new Promise((r) => setTimeout(r, 30));
  }
  await sb.control.faults({});

  // The faults did bite: some publishes lost their answer and had to be reconciled.
  expect(seen.get('unconfirmed') ?? 0).toBeGreaterThan(0);
  const entries = ids.map((id) => outbox.get(id)!);
  expect(entries.map((e) => e.state)).toEqual(script.map(() => 'sent'));
  const postIds = entries.map((e) => e.result!.postId);
  expect(new Set(postIds).size).toBe(script.length);

  const state = await sb.control.state();
  expect(state.posts).toBe(script.length);
  const { posts } = await client.listPosts({ limit: 100 });
  const captions = posts.map((p) => p.caption).sort();
  expect(captions).toEqual(script.map((r) => r.caption).sort());
  expect(new Set(posts.map((p) => p.post_id))).toEqual(new Set(postIds));
  expect(posts.filter((p) => p.caption.startsWith('draft')).every((p) => p.status === 'draft')).toBe(true);
  expect(posts.filter((p) => p.caption.startsWith('schedule')).every((p) => p.status === 'scheduled')).toBe(
    true,
  );

  await client.close();
  store.close();
});
