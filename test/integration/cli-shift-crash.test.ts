import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import type { Delivery } from '../../src-shared/api/posts';
import { runCli } from '../helpers/cli-process';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox';

/**
 * `posts update --shift 1d` on 30 posts, killed with SIGKILL at random points while the service drops answers it has
 * committed (`reset_rate`), then run again as a person would until it reports: every post must end exactly one day
 * later (never two), and no run may report as failed a move the service applied. The faults are proven to have
 * bitten: kills that landed after the service applied the move and before the CLI heard, and lost answers asked again.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const N = 30;
const TRIALS = 6;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A small seeded generator: the same kill points on every run of the test. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

async function seed(): Promise<Map<string, number>> {
  const at = (ms: number) => new Date(Date.parse(FIXTURE_NOW) + ms).toISOString();
  const items = Array.from({ length: N }, (_, i) => ({
    item_key: `k${i}`,
    caption: `crash shift ${i}`,
    targets: [{ platform: 'x' as const, social_account_id: IDS.accounts.x }],
    scheduled_at: at(DAY + i * HOUR),
  }));
  const res = await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id: randomUUID(), items } });
  expect(res.status).toBe(201);
  return new Map(
    (res.body.items as { index: number; post_id: string }[]).map((r) => [
      r.post_id,
      Date.parse(items[r.index]!.scheduled_at),
    ]),
  );
}

async function timesNow(): Promise<Map<string, number>> {
  const posts = (await sb.api('GET', '/api/cli/posts?status=scheduled&limit=100')).body.posts as Delivery[];
  return new Map(posts.map((d) => [d.post_id, Date.parse(d.scheduled_at!)]));
}

function openPlans(dataDir: string): number {
  const store = openStore(storeFile(dataDir));
  try {
    return (
      store.db.prepare(`SELECT COUNT(*) AS n FROM outbox_changes WHERE state = 'open'`).get() as { n: number }
    ).n;
  } finally {
    store.close();
  }
}

interface Report {
  total: number;
  updated: number;
  failed: number;
  unknown: number;
  requests: number;
  resumed: boolean;
}

it(`moves ${N} posts exactly once in ${TRIALS} trials of kill -9 and lost answers, and reports no applied move as failed`, async () => {
  const rnd = random(30);
  let killedAfterApplied = 0;
  let askedAgain = 0;
  let resumed = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    await sb.control.faults({});
    await sb.control.reset(demoFixture());
    const before = await seed();
    const dataDir = mkdtempSync(join(tmpdir(), 'pd-shift-crash-'));
    try {
      const cli = () =>
        runCli(['posts', 'update', '--shift', '1d', '--json'], {
          baseUrl: sb.url,
          dataDir,
          apiKey: TEST_KEYS.a,
          env: { POSTDESK_HTTP_RETRIES: '0' },
        });
      // Answers to the bulk update are slow (the kill lands while one is in flight) and often lost after commit.
      await sb.control.faults({
        reset_rate: 0.5,
        latency_ms: 250,
        paths: ['/api/cli/posts/bulk'],
        seed: 100 + trial,
      });
      const first = cli();
      let exited = false;
      void first.done.then(() => (exited = true));
      if (trial % 2 === 0) {
        // Killed the moment the service shows the move applied: its answer is still on its way (or lost).
        while (!exited && [...(await timesNow())].filter(([id, t]) => t === before.get(id)! + DAY).length < N)
          await new Promise((r) => setTimeout(r, 10));
        first.child.kill('SIGKILL');
      } else {
        // Killed anywhere: before the plan is recorded, while it is sent, or after.
        const timer = setTimeout(() => first.child.kill('SIGKILL'), 150 + Math.floor(rnd() * 600));
        void first.done.then(() => clearTimeout(timer));
      }
      const ended = await first.done;
      if (ended.signal === 'SIGKILL') {
        await sb.control.faults({});
        const now = await timesNow();
        const moved = [...before].filter(([id, t]) => now.get(id) === t + DAY).length;
        // The service applied the move, the CLI never heard, and the record says so: the case that used to move twice.
        if (moved === N && openPlans(dataDir) > 0) killedAfterApplied += 1;
        await sb.control.faults({
          reset_rate: 0.5,
          latency_ms: 50,
          paths: ['/api/cli/posts/bulk'],
          seed: 200 + trial,
        });
      } else {
        expect(ended.code, ended.out).not.toBe(1);
      }
      // Run again, as a person would, until a run reports with nothing unknown.
      let report: Report | null = ended.signal ? null : (JSON.parse(ended.out) as Report);
      for (let again = 0; again < 6 && (!report || report.unknown > 0); again++) {
        const run = await cli().done;
        expect(run.signal).toBeNull();
        report = JSON.parse(run.out) as Report;
        expect(run.code, run.out).toBe(report.unknown > 0 ? 4 : 0);
        if (report.resumed) resumed += 1;
        askedAgain += report.requests > 1 ? 1 : 0;
      }
      expect(report).not.toBeNull();
      expect(report!.failed).toBe(0);
      expect(report!.unknown).toBe(0);
      expect(report!.updated).toBe(N);

      await sb.control.faults({});
      const now = await timesNow();
      for (const [id, t] of before) expect(now.get(id), `post ${id} in trial ${trial}`).toBe(t + DAY);
      expect(await sb.control.state()).toMatchObject({ posts: N, deliveries: { scheduled: N } });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  // The faults bit: a kill after the service applied the move, a lost answer asked again, a run finished by the next.
  expect(killedAfterApplied).toBeGreaterThan(0);
  expect(askedAgain).toBeGreaterThan(0);
  expect(resumed).toBeGreaterThan(0);
}, 180_000);
