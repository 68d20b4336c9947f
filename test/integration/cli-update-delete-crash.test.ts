import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import { runCli } from '../helpers/cli-process';
import {
  inDataDir,
  killRun,
  loseAnswers,
  openChanges,
  runAgainUntil,
  sandboxForTrials,
  seededRandom,
} from '../helpers/crash-trials';
import { FIXTURE_NOW, IDS, TEST_KEYS, demoFixture } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * `posts update <id>` and `posts delete <id>`, each killed with SIGKILL at random points while the service drops
 * answers it has committed (`reset_rate` on `/api/cli/posts`: the update, the delete and the lists read back), then
 * run again as a person would until it reports. Every change must be applied exactly once and none reported failed
 * that the service applied. The changes that a second application would turn into a refusal are in it: a cancel
 * (the post is a draft by then), an added target (the account is on the post by then), a delete (gone by then).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const N = 12;

const trials = sandboxForTrials();

const at = (ms: number) => new Date(Date.parse(FIXTURE_NOW) + ms).toISOString();

/** Every delivery the service holds, read around the faults (a dropped answer is asked again). */
async function all(): Promise<Delivery[]> {
  const { sb } = trials;
  for (;;) {
    try {
      const out: Delivery[] = [];
      for (const status of ['draft', 'scheduled']) {
        const res = await sb.api('GET', `/api/cli/posts?status=${status}&limit=100`);
        if (res.status !== 200) throw new Error(String(res.status));
        out.push(...(res.body.posts as Delivery[]));
      }
      return out;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

interface Report {
  state: 'done' | 'failed' | 'unknown';
  resumed: boolean;
  requests: number;
}

/**
 * What a run said, by its exit code (0 done; 4 no answer, it may have been applied; 2 or 3 refused), and from its
 * JSON whether it finished an earlier run's change and how many requests it sent.
 */
function reportOf(run: { code: number | null; out: string }): Report {
  const state = run.code === 0 ? 'done' : run.code === 4 ? 'unknown' : 'failed';
  let said: Partial<Report> = {};
  try {
    said = JSON.parse(run.out) as Partial<Report>;
  } catch {
    // Not JSON: an error in words.
  }
  if (said.state !== undefined) expect(said.state).toBe(state);
  return { state, resumed: said.resumed === true, requests: said.requests ?? 1 };
}

/**
 * `added`: how many deliveries the change adds on the service, when it adds any. The sandbox's state (outside the
 * faults) then shows it applied within milliseconds, where a read of the posts waits out the same latency as the
 * command's own answer and so often learns it too late to kill the command before its answer lands.
 */
type Change = { args: string[]; applied: (ds: Delivery[]) => boolean; added?: number };
const deliveriesNow = async (sb: (typeof trials)['sb']) =>
  Object.values((await sb.control.state()).deliveries).reduce((a, b) => a + b, 0);

it(
  `updates and deletes ${N} posts exactly once under kill -9 and lost answers, none reported failed`,
  async () => {
    const { sb } = trials;
    await loseAnswers(sb, null);
    await sb.control.reset(demoFixture());
    const items = Array.from({ length: N }, (_, i) => ({
      item_key: `k${i}`,
      caption: `crash change ${i}`,
      targets: [{ platform: 'x' as const, social_account_id: IDS.accounts.x }],
      scheduled_at: at(DAY + i * HOUR),
    }));
    const seeded = await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id: randomUUID(), items } });
    expect(seeded.status).toBe(201);
    const posts = (seeded.body.items as { index: number; post_id: string; social_post_ids: string[] }[]).sort(
      (a, b) => a.index - b.index,
    );

    // Four kinds, in turn: a new caption and time (absolute), a cancel, an added target, a delete.
    const changes: Change[] = posts.map((p, i) => {
      const mine = (ds: Delivery[]) => ds.filter((d) => d.post_id === p.post_id);
      switch (i % 4) {
        case 0: {
          const when = at(3 * DAY + i * HOUR);
          return {
            args: ['update', p.post_id, '--caption', `edited ${i}`, '--at', when],
            applied: (ds) =>
              mine(ds).length === 1 &&
              mine(ds)[0]!.caption === `edited ${i}` &&
              Date.parse(mine(ds)[0]!.scheduled_at!) === Date.parse(when),
          };
        }
        case 1:
          return {
            args: ['update', p.social_post_ids[0]!, '--status', 'draft'],
            applied: (ds) => mine(ds).length === 1 && mine(ds)[0]!.status === 'draft',
          };
        case 2:
          return {
            args: ['update', p.post_id, '--add-target', `linkedin:${IDS.accounts.linkedin}`],
            added: 1,
            applied: (ds) =>
              mine(ds).length === 2 &&
              mine(ds).filter((d) => d.social_account_id === IDS.accounts.linkedin).length === 1,
          };
        default:
          return {
            args: ['delete', p.social_post_ids[0]!],
            applied: (ds) => mine(ds).length === 0,
          };
      }
    });

    const rnd = seededRandom(31);
    let killedAfterApplied = 0;
    let readBackOrResent = 0;
    let resumed = 0;
    for (const [i, change] of changes.entries()) {
      await inDataDir('pd-change-crash-', async (dataDir) => {
        const cli = () =>
          runCli(['posts', ...change.args, '--json'], {
            baseUrl: sb.url,
            dataDir,
            apiKey: TEST_KEYS.a,
            env: { POSTDESK_HTTP_RETRIES: '0' },
          });
        const faults = (seed: number, latencyMs: number) =>
          loseAnswers(sb, { paths: ['/api/cli/posts'], rate: 0.5, latencyMs, seed });
        const before = await deliveriesNow(sb);
        await faults(300 + i, 200);
        const added = change.added;
        const ended = await killRun(
          cli(),
          i % 2 === 0
            ? // Killed the moment the service shows the change applied: its answer is on its way, or lost.
              {
                whenApplied:
                  added === undefined
                    ? async () => change.applied(await all())
                    : async () => (await deliveriesNow(sb)) === before + added,
              }
            : { afterMs: 100 + Math.floor(rnd() * 900) },
        );
        let first: Report | null = null;
        if (ended.signal === 'SIGKILL') {
          await loseAnswers(sb, null);
          if (change.applied(await all()) && openChanges(dataDir) > 0) killedAfterApplied += 1;
          await faults(400 + i, 30);
        } else {
          first = reportOf(ended);
          // Never a refusal of what the service applied: done, or unknown (exit 4) and finished by the next run.
          expect(first.state, `${change.args.join(' ')}: ${ended.out}`).not.toBe('failed');
        }
        const report = await runAgainUntil(
          first,
          async () => {
            const run = await cli().done;
            expect(run.signal).toBeNull();
            // A run that could not even read the post first (its list answer lost) says so, exit 4, and records nothing.
            const r = reportOf(run);
            expect(r.state, `${change.args.join(' ')}: ${run.out}`).not.toBe('failed');
            if (r.resumed) resumed += 1;
            if (r.resumed || r.requests > 1) readBackOrResent += 1;
            return r;
          },
          (r) => r.state === 'done',
          8,
        );
        expect(report?.state, change.args.join(' ')).toBe('done');
        await loseAnswers(sb, null);
        expect(change.applied(await all()), change.args.join(' ')).toBe(true);
      });
    }
    // Exactly once, counted on the service: each cancel left one draft, each added target one delivery more, each
    // delete one delivery fewer.
    const kinds = [0, 1, 2, 3].map((k) => changes.filter((_, i) => i % 4 === k).length);
    expect(await sb.control.state()).toMatchObject({
      deliveries: { scheduled: kinds[0]! + 2 * kinds[2]!, draft: kinds[1] },
    });
    // The faults bit: kills after the service applied a change, and runs that finished what an earlier one left.
    expect(killedAfterApplied).toBeGreaterThan(0);
    expect(resumed).toBeGreaterThan(0);
    expect(readBackOrResent).toBeGreaterThan(0);
  },
  scaled(240_000),
);
