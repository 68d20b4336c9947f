import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import { runCliHere } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * `postdesk export` and the re-import of an edited export through `postdesk bulk import`, in this process,
 * against a real sandbox over HTTP, with real files: the export is private, in bulk import's columns, guarded
 * against spreadsheet formulas, and an edited caption re-imports as an update of that caption alone.
 */

let sb: TestSandbox;
let dataDir: string;
const cli = (...args: string[]) =>
  runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: TEST_KEYS.a,
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
    TZ: 'UTC',
  });

const X = { platform: 'x', social_account_id: IDS.accounts.x };
const LINKEDIN = { platform: 'linkedin', social_account_id: IDS.accounts.linkedin };
const FORMULA = '=HYPERLINK("http://example.invalid","click")';

async function create(body: Record<string, unknown>): Promise<string> {
  const res = await sb.api('POST', '/api/cli/posts', { body });
  expect(res.status).toBe(201);
  return res.body.post.id as string;
}

/** Every delivery the service lists, by id. */
async function everything(): Promise<Map<string, Delivery>> {
  const res = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?limit=100');
  expect(res.status).toBe(200);
  return new Map(res.body.posts.map((d) => [d.id, d]));
}

type Row = Record<string, string>;
const readCsv = (file: string): Row[] => parse(readFileSync(file), { columns: true, bom: true }) as Row[];

let ids: { scheduled: string; formula: string; draft: string };

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dataDir = mkdtempSync(join(tmpdir(), 'pd-export-cli-'));
  ids = {
    scheduled: await create({
      caption: 'Launch day, two networks',
      targets: [X, LINKEDIN],
      scheduled_at: '2031-03-01T09:30:00Z',
    }),
    formula: await create({ caption: FORMULA, targets: [X], action: 'draft' }),
    draft: await create({ caption: '  spaced draft  ', targets: [LINKEDIN], action: 'draft' }),
  };
}, scaled(60_000));

afterAll(async () => {
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('postdesk export posts', () => {
  it('writes a private CSV in the import columns, one row per post with its deliveries, formulas guarded', async () => {
    const file = join(dataDir, 'posts.csv');
    const run = await cli('export', 'posts', '-o', file, '--timezone', 'Europe/Paris');
    expect(run.err).toContain('exported 3 posts');
    expect(run.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rows = readCsv(file);
    expect(Object.keys(rows[0] ?? {}).slice(0, 7)).toEqual([
      'post_id',
      'caption',
      'targets',
      'media',
      'scheduled_at',
      'timezone',
      'action',
    ]);
    expect(rows.map((r) => r.post_id).sort()).toEqual(Object.values(ids).sort());
    const two = rows.find((r) => r.post_id === ids.scheduled) as Row;
    expect(String(two.targets).split(';').sort()).toEqual([
      `linkedin:${IDS.accounts.linkedin}`,
      `x:${IDS.accounts.x}`,
    ]);
    expect(two.statuses).toBe('scheduled;scheduled');
    expect(String(two.delivery_ids).split(';')).toHaveLength(2);
    expect(two.scheduled_at).toBe('2031-03-01T09:30:00.000Z');
    expect(two.scheduled_at_local).toBe('2031-03-01 10:30:00');
    expect(two.timezone).toBe('Europe/Paris');
    expect(two.action).toBe('schedule');
    // A spreadsheet would run this cell; the export writes it as text.
    expect((rows.find((r) => r.post_id === ids.formula) as Row).caption).toBe(`'${FORMULA}`);
  });

  it('streams JSON to stdout with every delivery and its times in UTC and local time', async () => {
    const run = await cli(
      'export',
      'posts',
      '--format',
      'json',
      '--status',
      'scheduled',
      '--timezone',
      'Asia/Tokyo',
    );
    expect(run.code).toBe(0);
    const posts = JSON.parse(run.out) as {
      post_id: string;
      caption: string;
      deliveries: Record<string, unknown>[];
    }[];
    expect(posts.map((p) => p.post_id)).toEqual([ids.scheduled]);
    expect(posts[0]?.deliveries).toHaveLength(2);
    expect(posts[0]?.deliveries[0]).toMatchObject({
      status: 'scheduled',
      scheduled_at: '2031-03-01T09:30:00.000Z',
      scheduled_at_local: '2031-03-01 18:30:00',
    });
  });

  it('refuses a zone that does not exist, before asking the service', async () => {
    const run = await cli('export', 'posts', '--timezone', 'Mars/Olympus');
    expect(run.code).toBe(2);
    expect(run.err).toContain('Mars/Olympus');
  });
});

describe('re-importing an edited export', () => {
  it('updates the edited caption alone; the same file again sends nothing', async () => {
    const file = join(dataDir, 'edit.csv');
    expect((await cli('export', 'posts', '-o', file)).code).toBe(0);
    const rows = readCsv(file);
    const before = await everything();
    const edited = rows.map((r) => (r.post_id === ids.draft ? { ...r, caption: 'A better caption' } : r));
    writeFileSync(file, stringify(edited, { header: true, quoted_string: true }));

    const run = await cli('bulk', 'import', file, '--json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report).toMatchObject({ state: 'done', updated: 1, failed: 0, unchanged: 2 });
    expect(report.changes).toEqual([{ row: expect.any(Number), post_id: ids.draft, changed: ['caption'] }]);

    const after = await everything();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, d] of after) {
      const was = before.get(id) as Delivery;
      if (d.post_id === ids.draft) {
        expect(d.caption).toBe('A better caption');
        expect({ ...d, caption: was.caption, updated_at: was.updated_at }).toEqual(was);
      } else {
        // The guarded formula came back as the very same text: nothing else changed.
        expect(d).toEqual(was);
      }
    }
    const state = await sb.control.state();
    expect(state.posts).toBe(3);

    const again = JSON.parse((await cli('bulk', 'import', file, '--json')).out);
    expect(again).toMatchObject({ state: 'done', updated: 0, unchanged: 3 });
  });

  it('reads a JSON export back the same way: unchanged, nothing sent', async () => {
    const file = join(dataDir, 'posts.json');
    expect((await cli('export', 'posts', '-o', file)).code).toBe(0);
    const before = await everything();
    const run = await cli('bulk', 'import', file, '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ state: 'done', updated: 0, unchanged: 3, problems: [] });
    expect(await everything()).toEqual(before);
  });

  it('refuses a row that would remove a target, or name a post nobody knows, and sends nothing', async () => {
    const file = join(dataDir, 'bad.csv');
    expect((await cli('export', 'posts', '-o', file)).code).toBe(0);
    const rows = readCsv(file).map((r) =>
      r.post_id === ids.scheduled
        ? { ...r, targets: `x:${IDS.accounts.x}`, caption: 'changed too' }
        : r.post_id === ids.draft
          ? { ...r, post_id: '99999999-9999-4999-8999-999999999999' }
          : r,
    );
    writeFileSync(file, stringify(rows, { header: true }));
    const before = await everything();
    const run = await cli('bulk', 'import', file);
    expect(run.code).toBe(2);
    expect(run.err + run.out).toContain('cannot be removed by an update');
    expect(run.err + run.out).toContain('no post 99999999-9999-4999-8999-999999999999 is known');
    expect(await everything()).toEqual(before);
  });
});

describe('postdesk export analytics and runs', () => {
  it('writes analytics for the filters as rows, totals first', async () => {
    const run = await cli('export', 'analytics', '--platform', 'x');
    expect(run.code).toBe(0);
    const rows = parse(run.out, { columns: true, bom: true }) as Row[];
    expect(rows[0]).toMatchObject({ section: 'totals' });
    expect(Number.isFinite(Number(rows[0]?.impressions))).toBe(true);
  });

  it('writes the run history of this machine (none yet: the header alone)', async () => {
    const run = await cli('export', 'runs', '--format', 'csv');
    expect(run.code).toBe(0);
    expect(
      run.out
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n'),
    ).toHaveLength(1);
    expect(run.out).toContain('"run_id","automation_id"');
  });
});
