import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { IDS, demoFixture, startTestSandbox, type Loose, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * What the command line does, against a real sandbox over HTTP: exports keep media given by URL, dates are read
 * as people type them (in the zone, said in the answer), automations are created and changed from the CLI, tables
 * name accounts and posts beside their ids, and `bulk import --skip-invalid` lists the rows it left out.
 */
let sb: TestSandbox;
let dir: string;

const cli = async (args: string[], tz = 'Europe/Paris') => {
  const run = await runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: join(dir, 'data'),
    POSTDESK_API_KEY: sb.apiKey,
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
    TZ: tz,
  });
  return { ...run, json: (): Loose => JSON.parse(run.out) };
};

const X = { platform: 'x', social_account_id: IDS.accounts.x };
const MEDIA_URL = 'https://media.example.com/Launch/Poster.PNG';

beforeAll(async () => {
  // Real time: the queue and "now" are this machine's.
  sb = await startTestSandbox(demoFixture({ now: null }));
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-behaviour-'));
}, scaled(60_000));

afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('export posts', () => {
  it('keeps media given by URL, and the unchanged export re-imports with nothing to change', async () => {
    const created = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'with a poster', targets: [X], media: [{ url: MEDIA_URL }], action: 'draft' },
    });
    expect(created.status).toBe(201);
    const json = await cli(['export', 'posts', '--format', 'json']);
    expect(json.code, json.err).toBe(0);
    const record = (JSON.parse(json.out) as Loose[]).find((p) => p.caption === 'with a poster');
    expect(record.media).toEqual([MEDIA_URL]);

    const file = join(dir, 'posts.csv');
    const csv = await cli(['export', 'posts', '-o', file]);
    expect(csv.code, csv.err).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(MEDIA_URL);
    const again = await cli(['--json', 'bulk', 'import', file, '--dry-run']);
    expect(again.code, again.out + again.err).toBe(0);
    expect(again.json().changes).toEqual([]);
  });
});

describe('dates as people type them', () => {
  it('posts create --at "2035-01-01 09:00" is read in the zone, and the answer says so', async () => {
    const run = await cli([
      'posts',
      'create',
      '-c',
      'local nine',
      '-t',
      `x:${IDS.accounts.x}`,
      '--at',
      '2035-01-01 09:00',
    ]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('2035-01-01 09:00 read in Europe/Paris');
    const listed = await sb.api('GET', '/api/cli/posts?status=scheduled&limit=100');
    const d = (listed.body.posts as Loose[]).find((p) => p.caption === 'local nine');
    expect(new Date(d.scheduled_at).toISOString()).toBe('2035-01-01T08:00:00.000Z');
  });

  it('analytics --from and --to take dates alone: whole days in the zone', async () => {
    const run = await cli(['--json', 'analytics', '--from', '2026-01-01', '--to', '2026-01-31']);
    expect(run.code, run.err).toBe(0);
    expect(new Date(run.json().range.start_date).toISOString()).toBe('2025-12-31T23:00:00.000Z');
    expect(new Date(run.json().range.end_date).toISOString()).toBe('2026-01-31T23:00:00.000Z');
    const human = await cli(['analytics', '--from', '2026-01-01', '--to', '2026-01-31']);
    expect(human.out).toContain('from 2026-01-01 to 2026-01-31 (the whole day), Europe/Paris time');
  });

  it('export posts --from and --to take dates alone, in --timezone', async () => {
    const run = await cli([
      'export',
      'posts',
      '--format',
      'json',
      '--timezone',
      'Europe/Paris',
      '--from',
      '2035-01-01',
      '--to',
      '2035-01-01',
    ]);
    expect(run.code, run.err).toBe(0);
    expect((JSON.parse(run.out) as Loose[]).map((p) => p.caption)).toContain('local nine');
  });

  it('a local time the zone skips is refused, naming the flag', async () => {
    const run = await cli([
      'posts',
      'create',
      '-c',
      'gap',
      '-t',
      `x:${IDS.accounts.x}`,
      '--at',
      '2035-03-25 02:30',
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--at: .*Europe\/Paris/);
  });
});

describe('automations from the command line', () => {
  it('creates, edits, pauses and resumes one, as the service then lists it', async () => {
    const made = await cli([
      '--json',
      'automations',
      'create',
      '--name',
      'Morning digest',
      '--cron',
      '0 9 * * 1-5',
      '-t',
      `instagram:${IDS.accounts.instagram}`,
    ]);
    expect(made.code, made.err).toBe(0);
    const id = made.json().automation.id as string;
    const listed = async () =>
      ((await sb.api('GET', '/api/automations')).body.automations as Loose[]).find((a) => a.id === id);
    expect(await listed()).toMatchObject({
      name: 'Morning digest',
      status: 'active',
      schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
    });

    expect((await cli(['automations', 'edit', id, '--name', 'Evening digest'])).code).toBe(0);
    expect(await listed()).toMatchObject({ name: 'Evening digest' });
    expect((await cli(['automations', 'pause', id])).code).toBe(0);
    expect(await listed()).toMatchObject({ status: 'paused' });
    expect((await cli(['automations', 'resume', id])).code).toBe(0);
    expect(await listed()).toMatchObject({ status: 'active' });

    const badCron = await cli(['automations', 'edit', id, '--cron', '0 9 * *']);
    expect(badCron.code).toBe(2);
    expect(badCron.err).toContain('--cron');
  });
});

describe('names beside ids', () => {
  it('queue show names the account', async () => {
    expect(
      (await cli(['queue', 'set', IDS.accounts.x, '--slot', 'daily 09:00', '--timezone', 'UTC'])).code,
    ).toBe(0);
    const run = await cli(['queue', 'show', IDS.accounts.x]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`Test x (${IDS.accounts.x})`);
  });

  it('analytics top posts show the caption and the account name', async () => {
    const res = await sb.api('POST', '/api/cli/posts', {
      body: { caption: 'Published for the top posts table', targets: [X] },
    });
    expect(res.status).toBe(201);
    const run = await cli(['analytics']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('Published for the top');
    expect(run.out).toContain('Test x');
  });
});

describe('bulk import --skip-invalid', () => {
  it('lists the rows it skipped, each with why', async () => {
    const file = join(dir, 'some-bad.csv');
    writeFileSync(
      file,
      [
        'caption,targets,scheduled_at',
        `good one,x:${IDS.accounts.x},2035-02-01T09:00:00Z`,
        'bad one,x:nope,2035-02-01T10:00:00Z',
      ].join('\n'),
    );
    const run = await cli(['bulk', 'import', file, '--skip-invalid']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/skipped 1 invalid row/);
    expect(run.out).toMatch(/row 2 \(line 3\), targets: .*"nope"/);
  });
});
