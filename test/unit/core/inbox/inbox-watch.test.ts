import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { createInbox } from '../../../../src-main/core/inbox/inbox';
import { createInboxWatch, type DraftRun } from '../../../../src-main/core/inbox/inbox-watch';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../../../helpers/sandbox';

/** The inbox watch against the real sandbox and a real SQLite file: one notice per run, once, across restarts. */

let sb: TestSandbox;
let client: ApiClient;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 0 } });
  dir = mkdtempSync(join(tmpdir(), 'postdesk-inbox-watch-'));
});
afterAll(async () => {
  await client.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
async function runDraft(): Promise<string> {
  seq += 1;
  const start = await sb.api('POST', `/api/agent/automations/${IDS.automation}/start`, {
    body: { executor_id: IDS.executor, revision: 1, idempotency_key: `${IDS.automation}:1:watch-${seq}` },
  });
  await sb.api('POST', `/api/agent/runs/${start.body.run.id}/complete-local`, {
    key: start.body.run_token,
    body: { caption: `clip ${seq}` },
  });
  return start.body.run.id as string;
}

function watchOn(store: Store) {
  const inbox = createInbox({
    client: async () => client,
    runs: async (ids) =>
      new Map(
        ids.map((id) => [
          id,
          {
            local_id: `l-${id}`,
            automation_id: IDS.automation,
            automation_name: 'Daily clip',
            state: 'completed' as const,
            scheduled_for: null,
            finished_at: null,
          },
        ]),
      ),
  });
  const watch = createInboxWatch({ store, list: () => inbox.list(), scope: () => 'sandbox' });
  const told: DraftRun[] = [];
  const counts: number[] = [];
  watch.onDidDraftRun((r) => told.push(r));
  watch.onDidChangeCount((n) => counts.push(n));
  return { watch, told, counts, inbox };
}

describe('the inbox watch', () => {
  it('records what waits at the first look, then tells of each new run once, and never again after a restart', async () => {
    const file = join(dir, 'store.db');
    const before = await runDraft();
    let store = openStore(file);
    let t = watchOn(store);
    expect(await t.watch.checkNow()).toEqual([]);
    expect(t.watch.count()).toBe(1);
    expect(t.counts).toEqual([1]);

    const a = await runDraft();
    const b = await runDraft();
    const fresh = await t.watch.checkNow();
    expect(fresh.map((r) => r.runId).sort()).toEqual([a, b].sort());
    expect(t.told.find((r) => r.runId === a)).toEqual({
      runId: a,
      automationName: 'Daily clip',
      drafts: 1,
      link: `postdesk://inbox/${a}`,
    });
    expect(t.watch.count()).toBe(3);
    // Looking again tells nothing new.
    expect(await t.watch.checkNow()).toEqual([]);
    expect(t.told).toHaveLength(2);

    // A person rejects one: the count follows.
    await t.inbox.reject([(await t.inbox.list({ run_id: a })).groups[0]!.drafts[0]!.post_id]);
    await t.watch.checkNow();
    expect(t.watch.count()).toBe(2);
    expect(t.counts).toEqual([1, 3, 2]);

    // Restarted: the same store remembers what it told.
    t.watch.dispose();
    store.close();
    store = openStore(file);
    t = watchOn(store);
    expect(await t.watch.checkNow()).toEqual([]);
    const c = await runDraft();
    expect((await t.watch.checkNow()).map((r) => r.runId)).toEqual([c]);
    expect(t.told.map((r) => r.runId)).not.toContain(before);
    t.watch.dispose();
    store.close();
  });
});
