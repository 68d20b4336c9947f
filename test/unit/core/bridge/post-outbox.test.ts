import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { createPostOutboxPort } from '../../../../src-main/core/bridge/post-outbox';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import { MemoryLog } from '../../../helpers/memory-log';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../../../helpers/sandbox';

let sb: TestSandbox;
let client: ApiClient;
let dir: string;
let store: Store;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: null }));
  // No retries inside the client: what is tried again here is the port's own read-back.
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 0 } });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(demoFixture({ now: null }));
  dir = mkdtempSync(join(tmpdir(), 'pd-post-outbox-'));
  store = openStore(join(dir, 'postdesk.db'));
});
afterEach(async () => {
  await sb.control.faults({});
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('reads a created post back with backoff, and logs why it answered without its deliveries', async () => {
  let listings = 0;
  // The real client; once the draft is created, every posts request the sandbox gets answers 503.
  const flaky = Object.create(client) as ApiClient;
  flaky.bulkCreate = async (...a) => {
    const r = await client.bulkCreate(...a);
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts'] });
    return r;
  };
  flaky.listPosts = async (...a) => {
    listings += 1;
    return client.listPosts(...a);
  };
  const log = new MemoryLog();
  const port = createPostOutboxPort({ store, client: () => flaky, scope: () => 'sandbox', log });
  const started = Date.now();
  const created = await port.create({
    caption: 'read back later',
    action: 'draft',
    targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
  });
  port.close();
  expect(created.post.id).toBeTruthy();
  expect(created.social_posts).toEqual([]);
  expect(listings).toBe(3);
  // Two waits of at least 250 and 500 ms between the three tries.
  expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  expect(log.entries).toEqual([
    {
      level: 'warn',
      message: 'reading back a created post failed',
      fields: { postId: created.post.id, error: expect.stringMatching(/injected fault/) },
    },
  ]);
  await sb.control.faults({});
  expect((await client.listPosts({ limit: 100 })).posts.some((d) => d.post_id === created.post.id)).toBe(
    true,
  );
});

it('shows exactly the entries not settled: a create that the service confirmed leaves the notice at once', async () => {
  const lists: number[][] = [];
  const port = createPostOutboxPort({
    store,
    client: () => client,
    scope: () => 'sandbox',
    onDidChangeQueued: (posts) => lists.push([posts.length]),
  });
  const created = await port.create({
    caption: 'scheduled and confirmed',
    scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
  });
  port.close();
  expect(created.post.id).toBeTruthy();
  // It was shown while it waited, and the last word, sent when it settled, is an empty notice.
  expect(lists.length).toBeGreaterThan(1);
  expect(lists.at(-1)).toEqual([0]);
  expect(port.queued()).toEqual([]);
});

it('keeps an entry the service has not confirmed in the notice, and takes it out when it is sent later', async () => {
  let last: readonly unknown[] = [];
  const port = createPostOutboxPort({
    store,
    client: () => client,
    scope: () => 'sandbox',
    settleMs: 300,
    onDidChangeQueued: (posts) => (last = posts),
  });
  await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts/bulk'] });
  await expect(
    port.create({
      caption: 'saved for later',
      action: 'draft',
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
    }),
  ).rejects.toMatchObject({ code: 'OUTBOX_QUEUED' });
  expect(last).toHaveLength(1);
  await sb.control.faults({});
  await port.replay();
  port.close();
  expect(last).toEqual([]);
});
