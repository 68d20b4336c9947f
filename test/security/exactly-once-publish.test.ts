import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { runCli } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * Issue #10, point 1: a publish-now whose answer was lost must never be published a second time because
 * newer deliveries pushed it out of the posts list's window of 100.
 */
const SETTLE_MS = 400;
const X = `x:${IDS.accounts.x}`;
const LINKEDIN = `linkedin:${IDS.accounts.linkedin}`;
const X1 = { platform: 'x', social_account_id: IDS.accounts.x };

let sb: TestSandbox;
let dataDir: string;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: null }));
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control.faults({});
  await sb.control.reset(demoFixture({ now: null }));
  dataDir = mkdtempSync(join(tmpdir(), 'pd-exactly-once-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  runCli(args, {
    baseUrl: sb.url,
    dataDir,
    apiKey: TEST_KEYS.a,
    env: { POSTDESK_OUTBOX_SETTLE_MS: String(SETTLE_MS) },
  });

interface EntryRow {
  id: string;
  state: string;
  sent_at: number | null;
  result: string | null;
}
function entries(): EntryRow[] {
  const store = openStore(storeFile(dataDir));
  try {
    return store.db
      .prepare('SELECT id, state, sent_at, result FROM outbox_entries ORDER BY created_at')
      .all() as EntryRow[];
  } finally {
    store.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `posts create --now` with every answer of /api/cli/posts held for 3 s: once the service holds the post,
 * the CLI is killed with SIGKILL, before the answer can reach it.
 */
async function publishAndKill(caption: string, targets: string[]): Promise<string> {
  const before = (await sb.control.state()).posts;
  await sb.control.faults({ latency_ms: 3000, paths: ['/api/cli/posts'] });
  const run = cli(['posts', 'create', '--now', '-c', caption, ...targets.flatMap((t) => ['-t', t])]);
  // The CLI starts (tsx), lists (held 3 s), then posts: on a busy machine that can take a while.
  for (let i = 0; i < 800 && (await sb.control.state()).posts <= before; i++) await sleep(25);
  run.child.kill('SIGKILL');
  const killed = await run.done;
  await sb.control.faults({});

  // The fault really happened: the service committed the post, the CLI died without its answer.
  expect(killed.signal).toBe('SIGKILL');
  expect((await sb.control.state()).posts).toBe(before + 1);
  const [entry] = entries();
  expect(entry).toMatchObject({ state: 'sending', result: null });
  expect(entry?.sent_at).not.toBeNull();
  const { body } = await sb.api<{ posts: { post_id: string; caption: string }[] }>(
    'GET',
    '/api/cli/posts?status=posted&limit=100',
  );
  const ours = body.posts.find((p) => p.caption === caption);
  expect(ours).toBeDefined();
  return ours!.post_id;
}

/** Posts the newest-100 window of GET /api/cli/posts does not show: is the caption still in it? */
async function inNewestWindow(caption: string): Promise<boolean> {
  const { body } = await sb.api<{ posts: { caption: string }[] }>('GET', '/api/cli/posts?limit=100');
  return body.posts.some((p) => p.caption === caption);
}

describe('publish-now after a crash', { timeout: 90_000 }, () => {
  it('is found again after 120 newer deliveries and is not published a second time', async () => {
    const caption = 'Launch day: doors open at 9 🚀';
    const postId = await publishAndKill(caption, [X, LINKEDIN]);

    // One bulk batch of 60 posts × 2 targets: 120 deliveries newer than ours.
    const items = Array.from({ length: 60 }, (_, i) => ({
      item_key: `k${i}`,
      caption: `filler ${i}`,
      scheduled_at: '2099-05-01T09:00:00Z',
      targets: [
        { platform: 'x', social_account_id: IDS.accounts.x },
        { platform: 'linkedin', social_account_id: IDS.accounts.linkedin },
      ],
    }));
    const bulk = await sb.api('POST', '/api/cli/posts/bulk', {
      body: { batch_id: '5a1e0000-0000-4000-8000-000000000001', items },
    });
    expect(bulk.status).toBe(201);
    expect(await inNewestWindow(caption)).toBe(false);

    await sleep(SETTLE_MS + 200);
    const flush = await cli(['outbox', 'flush']).done;
    expect(flush.code).toBe(0);

    const state = await sb.control.state();
    expect(state.posts).toBe(61);
    expect(state.deliveries.posted).toBe(2);
    const [entry] = entries();
    expect(entry?.state).toBe('sent');
    expect(JSON.parse(entry!.result!)).toMatchObject({ postId });
  });

  it('when the lists cannot tell, it is not sent again: it waits for a decision, shown by `outbox list`', async () => {
    // Older posts on the same account, so the look-up has something before the send to measure from.
    for (let i = 0; i < 3; i++) {
      expect(
        (await sb.api('POST', '/api/cli/posts', { body: { caption: `older ${i}`, targets: [X1] } })).status,
      ).toBe(201);
    }
    const caption = 'Flash sale ends tonight';
    await publishAndKill(caption, [X]);

    // 101 newer published posts on the same account: every window that could hold ours is full of newer ones.
    for (let i = 0; i < 101; i++) {
      const r = await sb.api('POST', '/api/cli/posts', { body: { caption: `busy ${i}`, targets: [X1] } });
      expect(r.status).toBe(201);
    }
    expect(await inNewestWindow(caption)).toBe(false);
    const before = await sb.control.state();

    await sleep(SETTLE_MS + 200);
    const flush = await cli(['outbox', 'flush']).done;

    expect(await sb.control.state()).toEqual(before);
    const [entry] = entries();
    expect(entry?.state).toBe('needs_decision');
    expect(flush.out).toMatch(/1 need(s)? your decision/);

    const list = await cli(['outbox', 'list']).done;
    expect(list.code).toBe(0);
    expect(list.out).toContain(entry!.id);
    expect(list.out).toMatch(/needs your decision/);

    // The person decides: it was published, so the entry is dropped; nothing is sent.
    const discard = await cli(['outbox', 'discard', entry!.id]).done;
    expect(discard.code).toBe(0);
    expect(entries()).toEqual([]);
    expect(await sb.control.state()).toEqual(before);
  });
});
