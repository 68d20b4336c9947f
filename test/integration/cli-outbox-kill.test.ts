import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../src-main/core/api/client';
import { createOutbox } from '../../src-main/core/outbox/outbox';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import type { CreatePostRequest } from '../../src-shared/api/posts';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

const BIN = resolve(__dirname, '../../bin/postdesk.js');
let sb: TestSandbox;
let dataDir: string;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: null }));
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-kill-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function postdesk(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; out: string }>;
} {
  const child = spawn(process.execPath, [BIN, '--base-url', sb.url, ...args], {
    env: {
      PATH: process.env.PATH,
      POSTDESK_DATA_DIR: dataDir,
      POSTDESK_API_KEY: TEST_KEYS.a,
      POSTDESK_OUTBOX_SETTLE_MS: '300',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((r) =>
    child.on('close', (code, signal) => r({ code, signal, out })),
  );
  return { child, done };
}

function entryStates(): string[] {
  const store = openStore(storeFile(dataDir));
  try {
    return (
      store.db.prepare('SELECT state FROM outbox_entries ORDER BY created_at').all() as { state: string }[]
    ).map((r) => r.state);
  } finally {
    store.close();
  }
}

it('killing the CLI mid-replay and starting it again ends with every post exactly once', async () => {
  const script: CreatePostRequest[] = [];
  const x = { platform: 'x' as const, social_account_id: IDS.accounts.x };
  // Interleaved, starting with a publish-now: the kill (once the first post lands) cuts off a publish whose post was
  // created but whose answer is still on its way.
  for (let i = 0; i < 5; i++) {
    script.push({ caption: `kill now ${i}`, targets: [x] });
    script.push({ caption: `kill draft ${i}`, action: 'draft', targets: [x] });
    script.push({ caption: `kill schedule ${i}`, scheduled_at: '2099-02-01T08:00:00Z', targets: [x] });
  }

  // Queue the posts as the app would, then leave them to the CLI.
  const store = openStore(storeFile(dataDir));
  const client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a });
  const outbox = createOutbox(store, client);
  for (const r of script) outbox.enqueuePost(r);
  await client.close();
  store.close();

  // Every post request is slow, so the kill lands while sends are in flight.
  await sb.control.faults({ latency_ms: 120, paths: ['/api/cli/posts'] });
  const first = postdesk(['outbox', 'flush']);
  for (let i = 0; i < 400; i++) {
    if ((await sb.control.state()).posts >= 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  first.child.kill('SIGKILL');
  const killed = await first.done;
  expect(killed.signal).toBe('SIGKILL');
  const midway = await sb.control.state();
  expect(midway.posts).toBeGreaterThanOrEqual(1);
  expect(midway.posts).toBeLessThan(script.length);
  expect(entryStates().filter((s) => s !== 'sent').length).toBeGreaterThan(0);

  // Any command replays the outbox on start; `outbox flush` then finishes what must wait for the settle interval.
  await sb.control.faults({});
  const restart = await postdesk(['--json', 'accounts']).done;
  expect(restart.code).toBe(0);
  for (let i = 0; i < 10 && entryStates().some((s) => s !== 'sent'); i++) {
    await new Promise((r) => setTimeout(r, 350));
    await postdesk(['outbox', 'flush']).done;
  }

  expect(entryStates()).toEqual(script.map(() => 'sent'));
  expect((await sb.control.state()).posts).toBe(script.length);
  const { body } = await sb.api<{ posts: { caption: string }[] }>('GET', '/api/cli/posts?limit=100');
  expect(body.posts.map((p) => p.caption).sort()).toEqual(script.map((r) => r.caption).sort());
});
