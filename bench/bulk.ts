/**
 * Bulk: 1,000 scheduled posts queued through `bulk import` (validation, 10 idempotent batches of 100, results read
 * back) beside 1,000 single `POST /api/cli/posts` calls, one after another and 8 at a time, against the same
 * in-process sandbox, each on a freshly reset sandbox. Prints the time and request-count ratios, first over
 * loopback (where a request costs almost nothing), then with a 50 ms round trip added to every answer by the
 * sandbox's `latency_ms`, where bulk is meant to be at least 20x faster than one create after another.
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
import { judge } from './goals';

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

/** A typical internet round trip, added to every answer by the sandbox's own fault injection. */
const ROUND_TRIP_MS = 50;
/** Over that round trip, bulk must be at least this much faster than one create after another. */
const GOAL_VS_SEQUENTIAL = 20;

interface Row {
  readonly name: string;
  readonly m: Measured;
}

/** Bulk import, then single creates one at a time and 8 at a time, each on a freshly reset sandbox. */
async function round(
  url: string,
  api: ApiClient,
  dir: string,
  csv: string,
  target: { platform: 'x'; social_account_id: string },
  latencyMs: number,
): Promise<Row[]> {
  const reset = async (): Promise<void> => {
    await control(url, 'POST', '/_sandbox/reset', demoFixture());
    // A reset turns faults off: the round trip goes back on after it.
    if (latencyMs > 0) await control(url, 'POST', '/_sandbox/faults', { latency_ms: latencyMs });
  };
  const rows: Row[] = [];
  await reset();
  // A store of its own: the same file imported again into the same store is an import already done.
  const store = openStore(join(dir, `store-${latencyMs}.db`));
  try {
    const bulk = createBulk({ api, store, defaultTimezone: 'UTC' });
    rows.push({
      name: 'bulk import (10 batches of 100)',
      m: await measure(async () => void (await bulk.importFile(csv))),
    });
  } finally {
    store.close();
  }
  if ((await scheduled(url)) !== POSTS) throw new Error('bulk import did not schedule every post');
  for (const parallel of [1, 8]) {
    await reset();
    rows.push({
      name: `${POSTS} x POST /api/cli/posts, ${parallel} at a time`,
      m: await measure(() => singles(api, target, parallel)),
    });
    if ((await scheduled(url)) !== POSTS) throw new Error('single posts did not schedule every post');
  }
  await control(url, 'POST', '/_sandbox/faults', {});
  return rows;
}

function print(title: string, rows: readonly Row[]): number {
  const bulkRun = rows[0]!.m;
  console.log(title);
  for (const { name, m } of rows) {
    console.log(
      `  ${name.padEnd(42)} ${m.ms.toFixed(0).padStart(6)} ms  ${String(m.requests).padStart(5)} requests  ${((POSTS / m.ms) * 1000).toFixed(0).padStart(6)} posts/s`,
    );
  }
  for (const { name, m } of rows.slice(1)) {
    console.log(
      `  bulk vs ${name}: ${(m.ms / bulkRun.ms).toFixed(1)}x faster, ${(m.requests / bulkRun.requests).toFixed(1)}x fewer requests`,
    );
  }
  return rows[1]!.m.ms / bulkRun.ms;
}

export async function benchBulk(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-bench-bulk-'));
  const sandbox = await startSandbox({ port: 0, quiet: true, dataDir: join(dir, 'sandbox') });
  const api = createApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey as string });
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

    print(
      `${POSTS} scheduled posts against the in-process sandbox, loopback:`,
      await round(sandbox.url, api, dir, csv, target, 0),
    );
    const speedup = print(
      `${POSTS} scheduled posts with ${ROUND_TRIP_MS} ms added to every answer (the sandbox's latency_ms), a typical internet round trip:`,
      await round(sandbox.url, api, dir, csv, target, ROUND_TRIP_MS),
    );
    console.log(
      `goal: over a ${ROUND_TRIP_MS} ms round trip, bulk >= ${GOAL_VS_SEQUENTIAL}x faster than sequential creates: ${speedup.toFixed(1)}x: ${judge('bulk.vs_sequential', speedup)}`,
    );
  } finally {
    await api.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
