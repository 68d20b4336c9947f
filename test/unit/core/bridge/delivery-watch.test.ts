import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { createDeliveryWatch } from '../../../../src-main/core/bridge/delivery-watch';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import type { DeliveryFailed } from '../../../../src-shared/ipc/posts';
import { MemoryLog } from '../../../helpers/memory-log';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../../../helpers/sandbox';
import { until } from '../../../helpers/shell-fakes';

// Every publish to x fails: after the sandbox's three attempts, 5 minutes apart, the delivery is `failed`.
const fixture = () => demoFixture({ publishFailures: { x: 3 } });

let sb: TestSandbox;
let client: ApiClient;
let dir: string;
let store: Store;

beforeAll(async () => {
  sb = await startTestSandbox(fixture());
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 0 } });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(fixture());
  dir = mkdtempSync(join(tmpdir(), 'pd-delivery-watch-'));
  store = openStore(join(dir, 'postdesk.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('delivery watch', () => {
  it('reports a new failure to every listener once, and logs a listener that throws', async () => {
    const log = new MemoryLog();
    const watch = createDeliveryWatch({ store, client: () => client, scope: () => 'sandbox', log });
    expect(await watch.checkNow()).toEqual([]); // the first check only records what is already there

    const heard: DeliveryFailed[] = [];
    watch.onDidFailDelivery(() => {
      throw new Error('the tray could not refresh');
    });
    watch.onDidFailDelivery((d) => heard.push(d));
    const created = await client.createPost({
      caption: 'fails on x',
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
    });
    await sb.control.advance(11 * 60_000);

    const fresh = await watch.checkNow();
    expect(fresh.map((d) => d.post_id)).toEqual([created.post.id]);
    expect(heard.map((d) => d.post_id)).toEqual([created.post.id]);
    expect(log.entries).toEqual([
      {
        level: 'warn',
        message: 'a failed-delivery listener failed',
        fields: { error: 'the tray could not refresh' },
      },
    ]);
    expect(await watch.checkNow()).toEqual([]);
    watch.dispose();
  });

  it('logs a poll that failed and keeps polling', async () => {
    const log = new MemoryLog();
    // Nothing listens on port 9: every poll fails below HTTP.
    const dead = createApiClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: TEST_KEYS.a,
      retry: { retries: 0 },
    });
    const watch = createDeliveryWatch({
      store,
      client: () => dead,
      scope: () => 'sandbox',
      intervalMs: 20,
      log,
    });
    const polling = watch.start();
    await until(() => log.entries.length >= 2, 'two failed polls logged');
    polling.dispose();
    watch.dispose();
    await dead.close();
    expect(log.entries[0]).toMatchObject({
      level: 'warn',
      message: 'checking for failed deliveries failed',
      fields: { error: expect.stringMatching(/127\.0\.0\.1:9/) },
    });
  });
});
