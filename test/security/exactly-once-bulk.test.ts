import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process';
import { mediaFixtures } from '../helpers/media-fixtures';
import { IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * Issue #10, point 2: importing the same posts again, from a file whose bytes differ (CRLF line endings) or under
 * another `--timezone` that changes no time in it, creates nothing twice.
 */
let sb: TestSandbox;
let dir: string;
let dataDir: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pd-bulk-twice-'));
  dataDir = join(dir, 'data');
  copyFileSync(mediaFixtures().jpeg, join(dir, 'cover.jpg'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Report {
  state: string;
  resumed: boolean;
  import_id?: string;
  importId?: string;
  created: number;
}

async function importFile(file: string, ...flags: string[]): Promise<Report> {
  const r = await runCli(['--json', 'bulk', 'import', file, ...flags], {
    baseUrl: sb.url,
    dataDir,
    apiKey: TEST_KEYS.a,
  }).done;
  expect(r.code, r.out).toBe(0);
  return JSON.parse(r.out) as Report;
}
const idOf = (r: Report) => r.import_id ?? r.importId;

const x = `x:${IDS.accounts.x}`;
const linkedin = `linkedin:${IDS.accounts.linkedin}`;
/** Every time carries Z; one caption spans two lines; one row names a media file. */
const ROWS = [
  'caption,media,targets,scheduled_at',
  `"Spring range, part 1",,${x},2031-04-01T09:00:00Z`,
  `"Two lines:\nsee you there",cover.jpg,${x};${linkedin},2031-04-02T09:30:00Z`,
  `Last call,,${linkedin},2031-04-03T18:00:00Z`,
];

it('the same rows from a CRLF copy, or under another --timezone, create nothing twice', async () => {
  const lf = join(dir, 'spring.csv');
  writeFileSync(lf, `${ROWS.join('\n')}\n`);
  const first = await importFile(lf, '--timezone', 'UTC');
  expect(first).toMatchObject({ state: 'done', resumed: false, created: 3 });
  const after = await sb.control.state();
  expect(after).toMatchObject({ posts: 3, deliveries: { scheduled: 4 }, batches: 1 });

  // Another zone: no time in the file is local, so what would be sent is the same.
  const tokyo = await importFile(lf, '--timezone', 'Asia/Tokyo');
  expect(tokyo).toMatchObject({ state: 'done', resumed: true, created: 3 });
  expect(idOf(tokyo)).toBe(idOf(first));
  expect(await sb.control.state()).toEqual(after);

  // The same rows saved with CRLF line endings (the quoted caption's line break too), under a third zone.
  const crlf = join(dir, 'spring-windows.csv');
  writeFileSync(crlf, `${ROWS.join('\r\n')}\r\n`.replace('Two lines:\n', 'Two lines:\r\n'));
  const windows = await importFile(crlf, '--timezone', 'America/New_York');
  expect(windows).toMatchObject({ state: 'done', resumed: true, created: 3 });
  expect(idOf(windows)).toBe(idOf(first));
  expect(await sb.control.state()).toEqual(after);
});

it('a local time read in another zone is another post, and is created', async () => {
  await sb.control.reset();
  const local = join(dir, 'local.csv');
  writeFileSync(local, `caption,targets,scheduled_at\nMorning post,${x},2031-05-01 09:00\n`);
  const utc = await importFile(local, '--timezone', 'UTC');
  expect(utc).toMatchObject({ state: 'done', resumed: false, created: 1 });
  const paris = await importFile(local, '--timezone', 'Europe/Paris');
  expect(paris).toMatchObject({ state: 'done', resumed: false, created: 1 });
  expect(idOf(paris)).not.toBe(idOf(utc));
  const { body } = await sb.api<{ posts: { scheduled_at: string }[] }>('GET', '/api/cli/posts?limit=10');
  expect(body.posts.map((p) => p.scheduled_at).sort()).toEqual([
    '2031-05-01T07:00:00.000Z',
    '2031-05-01T09:00:00.000Z',
  ]);
});
