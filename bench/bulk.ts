/**
 * Bulk: 1,000 scheduled posts queued through `bulk import` (validation, 10 idempotent batches of 100, results read
 * back) beside 1,000 single `POST /api/cli/posts` calls, one after another and 8 at a time, against the same
 * in-process sandbox, each on a freshly reset sandbox. Prints the time and request-count ratios.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src-sandbox/app';
import { demoFixture } from '../src-sandbox/demo-fixture';
import { createApiClient } from '../src-main/core/api/client';
import type { ApiClient } from '../src-main/core/api/client';
import { createBulk } from '../src-main/core/bulk/bulk';
import { openStore } from '../src-main/core/store/store';

const POSTS = 1000;

interface Measured {
  ms: number;
  requests: number;
}

/** Times `fn` and counts the HTTP requests this process starts meanwhile. */
async function measure(fn: () => Promise<void>): Promise<Measured> {
  let requests = 0;
  const count = (): void => {
    requests += 1;
  };
  subscribe('undici:request:create', count);
  const t = performance.now();
  try {
    await fn();
  } finally {
    unsubscribe('undici:request:create', count);
  }
  return { ms: performance.now() - t, requests };
}

async function control(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    ...(body !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

async function scheduled(url: string): Promise<number> {
  const state = await control(url, 'GET', '/_sandbox/state');
  return (state.deliveries as Record<string, number> | undefined)?.scheduled ?? 0;
}

const when = (i: number): string => new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString();

async function singles(
  api: ApiClient,
  target: { platform: 'x'; social_account_id: string },
  parallel: number,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < POSTS; i = next++) {
      await api.createPost({ caption: `single ${i}`, targets: [target], scheduled_at: when(i) });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

export async function benchBulk(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-bench-bulk-'));
  const sandbox = await startSandbox({ port: 0, quiet: true, dataDir: join(dir, 'sandbox') });
  const api = createApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey as string });
  const store = openStore(join(dir, 'store.db'));
  try {
    const account = (await api.listAccounts()).accounts.find(
      (a) => (a as { platform?: string }).platform === 'x',
    );
    if (!account) throw new Error('the demo fixture has no x account');
    const target = { platform: 'x' as const, social_account_id: account.id };
    const csv = join(dir, 'posts.csv');
    const lines = ['caption,targets,scheduled_at'];
    for (let i = 0; i < POSTS; i++) lines.push(`bulk ${i},x:${account.id},${when(i)}`);
    writeFileSync(csv, lines.join('\n'));

    const results: [string, Measured][] = [];
    await control(sandbox.url, 'POST', '/_sandbox/reset', demoFixture());
    const bulk = createBulk({ api, store, defaultTimezone: 'UTC' });
    results.push([
      'bulk import (10 batches of 100)',
      await measure(async () => void (await bulk.importFile(csv))),
    ]);
    if ((await scheduled(sandbox.url)) !== POSTS) throw new Error('bulk import did not schedule every post');

    for (const parallel of [1, 8]) {
      await control(sandbox.url, 'POST', '/_sandbox/reset', demoFixture());
      results.push([
        `${POSTS} x POST /api/cli/posts, ${parallel} at a time`,
        await measure(() => singles(api, target, parallel)),
      ]);
      if ((await scheduled(sandbox.url)) !== POSTS)
        throw new Error('single posts did not schedule every post');
    }

    const [, bulkRun] = results[0] as [string, Measured];
    console.log(`${POSTS} scheduled posts against the in-process sandbox:`);
    for (const [name, m] of results) {
      console.log(
        `  ${name.padEnd(42)} ${m.ms.toFixed(0).padStart(6)} ms  ${String(m.requests).padStart(5)} requests  ${((POSTS / m.ms) * 1000).toFixed(0).padStart(6)} posts/s`,
      );
    }
    for (const [name, m] of results.slice(1)) {
      console.log(
        `  bulk vs ${name}: ${(m.ms / bulkRun.ms).toFixed(1)}x faster, ${(m.requests / bulkRun.requests).toFixed(1)}x fewer requests`,
      );
    }
  } finally {
    store.close();
    await api.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
