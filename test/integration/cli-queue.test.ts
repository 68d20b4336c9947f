import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cron } from 'croner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { IDS, demoFixture, startTestSandbox, type Loose, type TestSandbox } from '../helpers/sandbox';

/**
 * `postdesk queue set/show/add` and `bulk import --queue` against a real sandbox over HTTP, on real time (the
 * queue reads this machine's clock). Where each post should land is worked out by croner, the library the
 * executor's schedules use, not by the code under test.
 */
let sandbox: TestSandbox;
let dataDir: string;
const X = IDS.accounts.x;
const LI = IDS.accounts.linkedin;

beforeAll(async () => {
  sandbox = await startTestSandbox(demoFixture({ now: null }));
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-queue-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const run = await runCliHere(['--base-url', sandbox.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: sandbox.apiKey,
    PATH: process.env.PATH,
  });
  const json = (): Loose => JSON.parse(run.out);
  return { ...run, json };
}

/** The next `n` instants of a cron schedule from now. */
const nextOf = (cron: string, timezone: string, n: number): string[] =>
  new Cron(cron, { timezone, paused: true }).nextRuns(n).map((d) => d.toISOString());

/** Each account's scheduled deliveries, as the service holds them, earliest first. */
async function scheduledOf(account: string): Promise<{ at: string; caption: string }[]> {
  const res = await sandbox.api('GET', '/api/cli/posts?status=scheduled&limit=100');
  return (res.body.posts as Loose[])
    .filter((d) => d.social_account_id === account)
    .map((d) => ({ at: new Date(d.scheduled_at).toISOString(), caption: d.caption as string }))
    .sort((a, b) => a.at.localeCompare(b.at));
}

describe('postdesk queue', () => {
  it("sets slots, skips a slot already taken, and adds posts at each target's next free slots", async () => {
    const bad = await cli(
      '--json',
      'queue',
      'set',
      X,
      '--slot',
      'mon-fri 9am',
      '--timezone',
      'Europe/Berlin',
    );
    expect(bad.code).toBe(2);
    const badZone = await cli('queue', 'set', X, '--slot', 'mon-fri 09:00', '--timezone', 'CET+1');
    expect(badZone.code).toBe(2);

    const set = await cli(
      '--json',
      'queue',
      'set',
      X,
      '--slot',
      'mon-fri 09:00,13:00',
      '--timezone',
      'Europe/Berlin',
    );
    expect(set.code).toBe(0);
    expect(set.json().queue).toMatchObject({ timezone: 'Europe/Berlin' });
    expect(set.json().queue.slots).toHaveLength(10);
    expect(
      (await cli('queue', 'set', LI, '--slot', 'daily 10:00', '--timezone', 'America/New_York')).code,
    ).toBe(0);

    const xSlots = nextOf('0 9,13 * * 1-5', 'Europe/Berlin', 4);
    const liSlots = nextOf('0 10 * * *', 'America/New_York', 3);
    // Another client already scheduled a post on X's first slot: the queue must leave it alone.
    const taken = await sandbox.api('POST', '/api/cli/posts', {
      body: {
        caption: 'already there',
        targets: [{ social_account_id: X, platform: 'x' }],
        scheduled_at: xSlots[0],
      },
    });
    expect(taken.status).toBe(201);

    const show = await cli('--json', 'queue', 'show', X, '--count', '3');
    expect(show.code).toBe(0);
    const upcoming = show.json().upcoming[0].slots as Loose[];
    expect(upcoming.map((s) => s.at)).toEqual(xSlots.slice(0, 3));
    expect(upcoming[0].posts.map((p: Loose) => p.caption)).toEqual(['already there']);
    expect(upcoming[1].posts).toEqual([]);

    const first = await cli(
      '--json',
      'queue',
      'add',
      '-c',
      'queued one',
      '-t',
      `x:${X}`,
      '-t',
      `linkedin:${LI}`,
    );
    expect(first.code).toBe(0);
    // X's next free slot and LinkedIn's differ: two posts, one per instant.
    expect(
      first
        .json()
        .posts.map((p: Loose) => p.at)
        .sort(),
    ).toEqual([xSlots[1], liSlots[0]].sort());
    const second = await cli('--json', 'queue', 'add', '-c', 'queued two', '-t', `x:${X},linkedin:${LI}`);
    expect(second.code).toBe(0);

    expect(await scheduledOf(X)).toEqual([
      { at: xSlots[0], caption: 'already there' },
      { at: xSlots[1], caption: 'queued one' },
      { at: xSlots[2], caption: 'queued two' },
    ]);
    expect(await scheduledOf(LI)).toEqual([
      { at: liSlots[0], caption: 'queued one' },
      { at: liSlots[1], caption: 'queued two' },
    ]);

    const human = await cli('queue', 'show', X, '--count', '4');
    expect(human.out).toContain('queued one');
    expect(human.out).toContain('(free)');

    const none = await cli('queue', 'add', '-c', 'nowhere', '-t', `tiktok:${IDS.accounts.tiktok}`);
    expect(none.code).toBe(2);
    expect(none.err).toContain('has no queue slots');
  });

  it('bulk import --queue fills the next free slots instead of reading times, and a re-import creates nothing', async () => {
    const before = await scheduledOf(X);
    const file = join(dataDir, 'queue.csv');
    writeFileSync(
      file,
      [
        'caption,targets,scheduled_at',
        // A time in the file is not read with --queue.
        `bulk one,x:${X},2020-01-01T00:00:00Z`,
        `bulk two,x:${X},`,
        `bulk three,x:${X},`,
      ].join('\n'),
    );
    const run = await cli('--json', 'bulk', 'import', file, '--queue');
    expect(run.code).toBe(0);
    expect(run.json().created).toBe(3);
    const xSlots = nextOf('0 9,13 * * 1-5', 'Europe/Berlin', before.length + 3);
    const after = await scheduledOf(X);
    expect(after.slice(before.length)).toEqual([
      { at: xSlots[before.length], caption: 'bulk one' },
      { at: xSlots[before.length + 1], caption: 'bulk two' },
      { at: xSlots[before.length + 2], caption: 'bulk three' },
    ]);

    const posts = (await sandbox.control.state()).posts;
    const again = await cli('--json', 'bulk', 'import', file, '--queue');
    expect(again.code).toBe(0);
    expect(again.json().resumed).toBe(true);
    expect((await sandbox.control.state()).posts).toBe(posts);
    expect(await scheduledOf(X)).toEqual(after);
  });
});
