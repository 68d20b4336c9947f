import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBulkStore } from '../../src-main/core/bulk/bulk-store';
import { openStore } from '../../src-main/core/store/store';
import { mediaFixtures } from '../helpers/media-fixtures';
import { IDS, TEST_KEYS, startTestSandbox } from '../helpers/sandbox';
import type { TestSandbox } from '../helpers/sandbox';

const ROOT = resolve(import.meta.dirname, '../..');
let sb: TestSandbox;
let dir: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pd-bulk-crash-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one import in its own process, printing each answered batch and, at the end, the report. */
function startImport(csv: string, dbFile: string) {
  const script = join(dir, 'import-child.mts');
  writeFileSync(
    script,
    `import { createApiClient } from ${JSON.stringify(join(ROOT, 'src-main/core/api/client.ts'))};
     import { createBulk } from ${JSON.stringify(join(ROOT, 'src-main/core/bulk/bulk.ts'))};
     import { openStore } from ${JSON.stringify(join(ROOT, 'src-main/core/store/store.ts'))};
     // Counts the tries that failed and were sent again (the sandbox's resets: its only faults here), to show the
     // faults really bit, whichever HTTP client carried them.
     let lost = 0;
     const quiet = () => {};
     const log = { info: quiet, warn: quiet, error: quiet,
       debug: (m) => { if (/failed, trying again/.test(m)) { lost += 1; console.log('lost ' + lost); } } };
     const api = createApiClient({ baseUrl: process.env.SB_URL, apiKey: process.env.SB_KEY, log,
       retry: { retries: 4, minTimeoutMs: 10, maxTimeoutMs: 100 } });
     const bulk = createBulk({ api, store: openStore(process.env.DB_FILE), defaultTimezone: 'UTC', concurrency: 1,
       onEvent: (e) => { if (e.type === 'batch-sent') console.log('batch-sent ' + e.seq); } });
     const r = await bulk.importFile(process.env.CSV);
     console.log('REPORT ' + JSON.stringify({ state: r.state, resumed: r.resumed, created: r.created, failed: r.failed,
       batches: r.batches.map((b) => b.created) }));
     process.exit(0);`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, SB_URL: sb.url, SB_KEY: TEST_KEYS.a, DB_FILE: dbFile, CSV: csv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  return { child, exit, out: () => stdout, err: () => stderr };
}

it('250 rows under 20% connection resets, killed mid-import and restarted: 3 batches, exactly 250 deliveries', async () => {
  await sb.control.reset();
  copyFileSync(mediaFixtures().png, join(dir, 'logo.png'));
  const lines = ['caption,media,targets,scheduled_at'];
  for (let i = 1; i <= 250; i++) {
    lines.push(
      `post ${i},logo.png,linkedin:${IDS.accounts.linkedin},2031-04-${String(1 + (i % 28)).padStart(2, '0')}T12:00:00Z`,
    );
  }
  const csv = join(dir, 'crash.csv');
  writeFileSync(csv, lines.join('\n'));
  const dbFile = join(dir, 'store.db');
  // Every reset lets the handler commit, then drops the answer: only identical retries avoid duplicates. The
  // latency keeps each batch in flight long enough for the kill to land between batches.
  await sb.control.faults({ reset_rate: 0.2, latency_ms: 100, seed: 11 });

  const first = startImport(csv, dbFile);
  await new Promise<void>((done, fail) => {
    const timer = setInterval(() => {
      if (/batch-sent 1/.test(first.out())) {
        clearInterval(timer);
        done();
      }
    }, 5);
    void first.exit.then(() => {
      clearInterval(timer);
      fail(new Error(`the import ended before it was killed:\n${first.out()}\n${first.err()}`));
    });
  });
  first.child.kill('SIGKILL');
  expect((await first.exit).signal).toBe('SIGKILL');

  // Killed mid-import: the plan (3 batches, their ids and item keys) is saved, not every batch is confirmed.
  const store = openStore(dbFile);
  const records = openBulkStore(store);
  const imp = records.unfinishedImports(sb.url)[0];
  expect(imp).toBeDefined();
  const saved = records.batches(imp!.id);
  expect(saved.map((b) => b.state).filter((s) => s === 'pending').length).toBeGreaterThan(0);
  expect(saved).toHaveLength(3);
  store.close();

  const second = startImport(csv, dbFile);
  const done = await second.exit;
  expect(done.code, second.err()).toBe(0);
  const lost = (run: { out(): string }) =>
    Math.max(0, ...[...run.out().matchAll(/lost (\d+)/g)].map((m) => Number(m[1])));
  expect(lost(first) + lost(second)).toBeGreaterThan(0);
  const report = JSON.parse(/REPORT (.*)/.exec(second.out())?.[1] ?? 'null') as {
    state: string;
    resumed: boolean;
    created: number;
    batches: number[];
  };
  expect(report).toEqual({ state: 'done', resumed: true, created: 250, failed: 0, batches: [100, 100, 50] });

  await sb.control.faults({});
  expect(await sb.control.state()).toMatchObject({
    posts: 250,
    deliveries: { scheduled: 250 },
    batches: 3,
    bulk_items: 250,
    media: { uploaded: 1, pending: 0 },
  });
  // The batch ids the service holds are the ones saved before the crash.
  for (const b of saved)
    expect((await sb.api('GET', `/api/cli/posts/bulk?batch_id=${b.batchId}&limit=1`)).body.total).toBe(
      b.seq === 3 ? 50 : 100,
    );
});
