import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox';

/** `postdesk inbox` against the real sandbox: the drafts of runs, approved and rejected from a terminal. */

let sb: TestSandbox;
let dataDir: string;
beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dataDir = mkdtempSync(join(tmpdir(), 'postdesk-cli-inbox-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = async (...args: string[]) => {
  const run = await runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: TEST_KEYS.a,
    PATH: process.env.PATH,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...run, json: (): any => JSON.parse(run.out) };
};

let seq = 0;
async function runDraft(caption: string): Promise<string> {
  seq += 1;
  const start = await sb.api('POST', `/api/agent/automations/${IDS.automation}/start`, {
    body: { executor_id: IDS.executor, revision: 1, idempotency_key: `${IDS.automation}:1:cli-${seq}` },
  });
  const done = await sb.api('POST', `/api/agent/runs/${start.body.run.id}/complete-local`, {
    key: start.body.run_token,
    body: { caption },
  });
  expect(done.status, done.text).toBe(200);
  return done.body.post.id as string;
}

describe('postdesk inbox', () => {
  it('lists only the drafts of runs, approves at a time, rejects, and says which failed', async () => {
    await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'by hand',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    const a = await runDraft('agent draft A');
    const b = await runDraft('agent draft B');

    const listed = await cli('inbox', '--json');
    expect(listed.code, listed.err).toBe(0);
    const posts = listed
      .json()
      .groups.flatMap((g: { drafts: { post_id: string }[] }) => g.drafts.map((d) => d.post_id));
    expect(posts.sort()).toEqual([a, b].sort());

    const human = await cli('inbox', 'list');
    expect(human.out).toContain('agent draft A');
    expect(human.out).not.toContain('by hand');

    const at = new Date(Date.parse(FIXTURE_NOW) + 2 * 86_400_000).toISOString();
    // The CLI checks "future" against this machine's clock; the sandbox's is fixed in 2030, so any 2030+ time passes both.
    const approved = await cli('inbox', 'approve', a, '--at', at, '--json');
    expect(approved.code, approved.err).toBe(0);
    expect(approved.json().results).toEqual([{ post_id: a, ok: true, scheduled_at: at, error: null }]);
    const scheduled = await sb.api('GET', '/api/cli/posts?status=scheduled');
    expect(scheduled.body.posts.find((d: { post_id: string }) => d.post_id === a)?.scheduled_at).toBe(at);

    // Rejecting b and a (already approved): b is deleted, a is refused and the exit code says so.
    const rejected = await cli('inbox', 'reject', b, a, '--json');
    expect(rejected.code).toBe(3);
    const results = rejected.json().results as { post_id: string; ok: boolean; error: string | null }[];
    expect(results.find((r) => r.post_id === b)?.ok).toBe(true);
    expect(results.find((r) => r.post_id === a)?.error).toMatch(/no longer in the inbox/);
    const drafts = await sb.api('GET', '/api/cli/posts?status=draft');
    expect(drafts.body.posts.map((d: { caption: string }) => d.caption)).toEqual(['by hand']);
  });
});

describe('postdesk inbox approve --queue', () => {
  it("schedules each draft at its account's next free slot, one after the other", async () => {
    // The queue plans on this machine's clock: a sandbox that follows real time.
    await sb.control.reset(demoFixture({ now: null }));
    const set = await cli(
      'queue',
      'set',
      IDS.accounts.instagram,
      '--slot',
      'daily 09:00',
      '--timezone',
      'UTC',
    );
    expect(set.code, set.err + set.out).toBe(0);
    const a = await runDraft('queued A');
    const b = await runDraft('queued B');
    const approved = await cli('inbox', 'approve', a, b, '--queue', '--json');
    expect(approved.code, approved.err + approved.out).toBe(0);
    const first = new Date();
    first.setUTCHours(9, 0, 0, 0);
    if (first.getTime() <= Date.now()) first.setUTCDate(first.getUTCDate() + 1);
    const second = new Date(first.getTime() + 86_400_000);
    const results = approved.json().results as { post_id: string; scheduled_at: string }[];
    expect(results.map((r) => [r.post_id, r.scheduled_at])).toEqual([
      [a, first.toISOString()],
      [b, second.toISOString()],
    ]);
    const scheduled = await sb.api('GET', '/api/cli/posts?status=scheduled');
    expect(
      scheduled.body.posts
        .map((d: { post_id: string; scheduled_at: string }) => [d.post_id, d.scheduled_at])
        .sort(),
    ).toEqual(
      [
        [a, first.toISOString()],
        [b, second.toISOString()],
      ].sort(),
    );
  });

  it("approves 'now' a minute ahead of the service's clock, not this computer's (the sandbox's runs years ahead)", async () => {
    // The service's clock three days ahead of this computer's.
    const ahead = Math.max(Date.now(), Date.parse(await sb.control.clock())) + 3 * 86_400_000;
    const service = Date.parse(await sb.control.setNow(new Date(ahead).toISOString()));
    expect(service - Date.now()).toBeGreaterThan(86_400_000);
    const c = await runDraft('approve me now');
    const approved = await cli('inbox', 'approve', c, '--json');
    expect(approved.code, approved.out + approved.err).toBe(0);
    const [result] = approved.json().results as { ok: boolean; scheduled_at: string }[];
    expect(result?.ok).toBe(true);
    // A minute after the service's now (its Date header has whole seconds).
    const lead = Date.parse(result!.scheduled_at) - service;
    expect(lead).toBeGreaterThan(55_000);
    expect(lead).toBeLessThan(65_000);
  });
});
