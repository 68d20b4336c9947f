import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { createDeliveryWatch } from '../../../../src-main/core/bridge/delivery-watch';
import { openStore } from '../../../../src-main/core/store/store';
import type { DeliveryUnconfirmed } from '../../../../src-shared/ipc/watch';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../../../helpers/sandbox';

/**
 * "Reported success but never appeared": a scheduled post whose time passes while the sandbox keeps it unpublished
 * (its account's first two publish attempts fail, 5 minutes apart) is marked not confirmed once the grace is over,
 * told once, and forgotten when the service finally says `posted`. The sandbox's clock drives both sides.
 */

let sb: TestSandbox;
let client: ApiClient;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ publishFailures: { x: 2 } }));
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 0 } });
  dir = mkdtempSync(join(tmpdir(), 'pd-not-confirmed-'));
});
afterAll(async () => {
  await client.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const minutes = (n: number) => n * 60_000;

describe('the delivery watch, for posts that did not go out on time', () => {
  it('marks a scheduled post not confirmed after its time and the grace, once, until the service says posted', async () => {
    let now = new Date(FIXTURE_NOW);
    const advance = async (ms: number) => {
      now = new Date(await sb.control.advance(ms));
    };
    const store = openStore(join(dir, 'postdesk.db'));
    let grace = minutes(5);
    const watch = createDeliveryWatch({
      store,
      client: () => client,
      scope: () => 'sandbox',
      now: () => now,
      confirmGraceMs: () => grace,
    });
    const told: DeliveryUnconfirmed[] = [];
    watch.onDidNotConfirm((d) => told.push(d));
    await watch.checkNow(); // the first look only records

    const at = new Date(now.getTime() + minutes(10)).toISOString();
    const flaky = await client.createPost({
      caption: 'due at ten past, on a flaky account',
      scheduled_at: at,
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
    });
    const fine = await client.createPost({
      caption: 'due at ten past, goes out',
      scheduled_at: at,
      targets: [{ platform: 'linkedin', social_account_id: IDS.accounts.linkedin }],
    });
    const flakyId = flaky.social_posts[0]!.id;

    // Its time passed, the first attempt failed (retrying), but the grace is not over: nothing yet.
    await advance(minutes(12));
    expect((await client.listPosts({ status: 'retry_scheduled' })).posts.map((d) => d.id)).toEqual([flakyId]);
    await watch.checkNow();
    expect(told).toEqual([]);
    expect(watch.unconfirmed?.()).toEqual([]);

    // The grace is over and the service still has it waiting (its second attempt failed too): not confirmed.
    await advance(minutes(4));
    await watch.checkNow();
    expect(told).toEqual([
      {
        id: flakyId,
        post_id: flaky.post.id,
        platform: 'x',
        scheduled_at: at,
        found_at: now.toISOString(),
        link: `postdesk://post/${flakyId}`,
      },
    ]);
    expect(watch.unconfirmed?.().map((d) => d.id)).toEqual([flakyId]);
    // The post that went out is not marked; looking again tells nothing new.
    expect(watch.unconfirmed?.().map((d) => d.post_id)).not.toContain(fine.post.id);
    await watch.checkNow();
    expect(told).toHaveLength(1);

    // A longer grace later does not unmark it; the third attempt succeeds, and the mark goes.
    grace = minutes(60);
    await advance(minutes(5));
    expect((await client.listPosts({ status: 'posted' })).posts.map((d) => d.id)).toContain(flakyId);
    await watch.checkNow();
    expect(watch.unconfirmed?.()).toEqual([]);
    watch.dispose();
    store.close();
  });
});
