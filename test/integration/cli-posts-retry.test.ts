import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import { runCli } from '../helpers/cli-process';
import { killRun, loseAnswers, runAgainUntil, sandboxForTrials } from '../helpers/crash-trials';
import { IDS, TEST_KEYS, demoFixture } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * `postdesk posts retry`: a delivery made to fail on the sandbox (its account fails every attempt), the account
 * mended, then retried: one new post for that account, published or scheduled once, and the failed delivery gone;
 * again after kill -9 at random points and lost answers.
 */

const trials = sandboxForTrials();
let dataDir: string;
beforeEach(async () => {
  await trials.sb.control.reset(demoFixture());
  rmSync(dataDir ?? '/nonexistent', { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-retry-'));
});

const cli = (...args: string[]) =>
  runCli(['posts', 'retry', ...args], {
    baseUrl: trials.sb.url,
    dataDir,
    apiKey: TEST_KEYS.a,
    env: { POSTDESK_OUTBOX_SETTLE_MS: '300' },
  });

/** A post to X that fails all three attempts (the sandbox's), its account then mended; answers the failed delivery. */
async function failedOnX(caption = 'it failed'): Promise<Delivery> {
  const { sb } = trials;
  await sb.control.patchAccount(IDS.accounts.x, { publish_failures: 3 });
  const res = await sb.api('POST', '/api/cli/posts', {
    body: { caption, targets: [{ platform: 'x', social_account_id: IDS.accounts.x }] },
  });
  expect(res.status).toBe(201);
  await sb.control.advance(11 * 60_000);
  const failed = (await sb.api('GET', '/api/cli/posts?status=failed&limit=100')).body.posts as Delivery[];
  expect(failed).toHaveLength(1);
  await sb.control.patchAccount(IDS.accounts.x, { publish_failures: 0 });
  return failed[0]!;
}

const all = async () => (await trials.sb.api('GET', '/api/cli/posts?limit=100')).body.posts as Delivery[];

describe('postdesk posts retry', () => {
  it('publishes the failed delivery again once, removes the failed one, keeps its reason, and a second run adds nothing', async () => {
    const failed = await failedOnX();
    const run = await cli(failed.id, '--json').done;
    expect(run.code, run.out).toBe(0);
    const json = JSON.parse(run.out) as {
      results: { delivery_id: string; state: string; post_id: string; removed: boolean; reason: string }[];
    };
    expect(json.results).toEqual([
      expect.objectContaining({
        delivery_id: failed.id,
        state: 'sent',
        removed: true,
        reason: failed.last_error,
      }),
    ]);
    const after = await all();
    expect(after.map((d) => [d.caption, d.status])).toEqual([['it failed', 'posted']]);
    expect(after[0]!.post_id).toBe(json.results[0]!.post_id);

    const again = await cli(failed.id, '--json').done;
    expect(again.code, again.out).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ results: [{ state: 'sent', resumed: true }] });
    expect(await trials.sb.control.state()).toMatchObject({ posts: 1, deliveries: { posted: 1 } });
  });

  it('schedules the retry at a chosen time, and refuses a delivery that did not fail', async () => {
    const failed = await failedOnX('retry later');
    const at = new Date(Date.parse(await trials.sb.control.clock()) + 2 * 3_600_000).toISOString();
    const run = await cli(failed.post_id, '--at', at).done;
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('it had failed: simulated x failure');
    const after = await all();
    expect(after.map((d) => [d.status, d.scheduled_at])).toEqual([['scheduled', at]]);
    const refused = await cli(after[0]!.id).done;
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('only a failed delivery can be retried');
  });

  it(
    'makes the post exactly once through kill -9 at random points and lost answers',
    async () => {
      const { sb } = trials;
      let killed = 0;
      for (let trial = 0; trial < 4; trial++) {
        await loseAnswers(sb, null);
        await sb.control.reset(demoFixture());
        rmSync(dataDir, { recursive: true, force: true });
        dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-retry-'));
        const failed = await failedOnX(`crash retry ${trial}`);
        await loseAnswers(sb, { paths: ['/api/cli/posts'], rate: 0.4, latencyMs: 150, seed: 7 + trial });
        const ended = await killRun(cli(failed.id, '--json'), { afterMs: 200 + trial * 350 });
        if (ended.signal === 'SIGKILL') killed += 1;
        const ok = await runAgainUntil(
          ended.code === 0,
          async () => {
            const run = await cli(failed.id, '--json').done;
            // A lost answer is never reported as a refusal.
            expect(run.code, run.out).not.toBe(3);
            return run.code === 0;
          },
          (done) => done,
          8,
        );
        expect(ok).toBe(true);
        await loseAnswers(sb, null);
        const after = await all();
        expect(
          after.map((d) => [d.caption, d.status]),
          `trial ${trial}`,
        ).toEqual([[`crash retry ${trial}`, 'posted']]);
      }
      expect(killed).toBeGreaterThan(0);
    },
    scaled(120_000),
  );
});
