import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { IDS, demoFixture, startTestSandbox, type Loose, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * The CLI reaches every post, not only the newest 100 of a status: `posts show` answers from the local index,
 * then from the service's lists narrowed by status and platform; `posts list --all` and `--page` page the index.
 * Against a real sandbox over HTTP, each CLI run in this process.
 */
let sb: TestSandbox;
let dataDir: string;

const cli = async (...args: string[]) => {
  const run = await runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: sb.apiKey,
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
    TZ: 'UTC',
  });
  return { ...run, json: (): Loose => JSON.parse(run.out) };
};

const X = { platform: 'x', social_account_id: IDS.accounts.x };
const LINKEDIN = { platform: 'linkedin', social_account_id: IDS.accounts.linkedin };

/** `n` posts in one bulk batch, straight to the service (this machine never sees them created). */
async function bulk(n: number, item: (i: number) => Record<string, unknown>): Promise<string[]> {
  const items = Array.from({ length: n }, (_, i) => ({ item_key: `k${i}`, ...item(i) }));
  const res = await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id: randomUUID(), items } });
  expect(res.status).toBe(201);
  return (res.body.items as Loose[]).map((r) => r.post_id as string);
}

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-reach-'));
}, scaled(60_000));

afterAll(async () => {
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('posts show reaches every post', () => {
  it('finds the oldest post of a 150-row import, which the newest 100 of its status leave out', async () => {
    const file = join(dataDir, 'import.csv');
    const rows = Array.from(
      { length: 150 },
      (_, i) =>
        `"Import row ${i + 1}",x:${IDS.accounts.x},2035-01-${String((i % 28) + 1).padStart(2, '0')}T09:00:00Z`,
    );
    writeFileSync(file, ['caption,targets,scheduled_at', ...rows].join('\n'));
    const imported = await cli('bulk', 'import', file);
    expect(imported.code, imported.out + imported.err).toBe(0);
    // The oldest delivery of the import, as the service lists none of them beyond the newest 100.
    const exported = await cli('--json', 'export', 'posts', '--format', 'json');
    const posts = (JSON.parse(exported.out) as Loose[]).filter((p) =>
      String(p.caption).startsWith('Import row '),
    );
    expect(posts).toHaveLength(150);
    const first = posts.find((p) => p.caption === 'Import row 1');
    const newest100 = await sb.api('GET', '/api/cli/posts?status=scheduled&limit=100');
    expect((newest100.body.posts as Loose[]).some((d) => d.post_id === first.post_id)).toBe(false);

    const shown = await cli('--json', 'posts', 'show', first.post_id);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.json().post_id).toBe(first.post_id);
    expect(shown.json().caption).toBe('Import row 1');
  });

  it('finds a post this machine never saw that only a list by status and platform together shows', async () => {
    // The oldest: a LinkedIn draft, then 100 newer LinkedIn schedules (it leaves the LinkedIn list) and 100
    // newer x drafts (it leaves the drafts list). Only "drafts on LinkedIn" still lists it.
    const [hidden] = await bulk(1, () => ({ caption: 'Hidden draft', targets: [LINKEDIN], action: 'draft' }));
    await bulk(100, (i) => ({
      caption: `LinkedIn schedule ${i}`,
      targets: [LINKEDIN],
      scheduled_at: '2036-01-01T09:00:00Z',
    }));
    await bulk(100, (i) => ({ caption: `x draft ${i}`, targets: [X], action: 'draft' }));
    const shown = await cli('--json', 'posts', 'show', hidden as string);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.json().caption).toBe('Hidden draft');
    expect(shown.json().deliveries.map((d: Loose) => d.platform)).toEqual(['linkedin']);
  });

  it('says how far back it looked when nothing has that id', async () => {
    const missing = await cli('posts', 'show', randomUUID());
    expect(missing.code).toBe(3);
    expect(missing.err).toMatch(/seen on this machine/);
    expect(missing.err).not.toMatch(/newest 100 deliveries of each status/);
  });
});

describe('posts list pages', () => {
  it('--all lists every delivery the index holds; --page walks them by --limit', async () => {
    const all = await cli('--json', 'posts', 'list', '--all', '--status', 'scheduled', '--platform', 'x');
    expect(all.code, all.err).toBe(0);
    const ids = (all.json().posts as Loose[]).map((d) => d.id as string);
    expect(ids.length).toBe(150);
    expect(new Set(ids).size).toBe(150);

    const page2 = await cli(
      '--json',
      'posts',
      'list',
      '--status',
      'scheduled',
      '--platform',
      'x',
      '--limit',
      '40',
      '--page',
      '2',
    );
    expect(page2.code, page2.err).toBe(0);
    expect((page2.json().posts as Loose[]).map((d) => d.id)).toEqual(ids.slice(40, 80));
    expect(page2.json().total).toBe(150);

    const table = await cli('posts', 'list', '--all', '--status', 'scheduled', '--platform', 'x');
    expect(table.code).toBe(0);
    expect(table.out).toContain('Import row 1');
    expect(table.out).toContain('Import row 150');
  });
});
