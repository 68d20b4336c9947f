import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import { runCliHere } from '../helpers/cli-process';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(FIXTURE_NOW) + ms).toISOString();

let sb: TestSandbox;
let dataDir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.control.reset(demoFixture());
  rmSync(dataDir ?? '/nonexistent', { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-shift-'));
});

const cli = (...args: string[]) =>
  runCliHere(['--base-url', sb.url, ...args], {
    POSTDESK_DATA_DIR: dataDir,
    POSTDESK_API_KEY: TEST_KEYS.a,
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
  });

/** `n` scheduled posts, an hour apart from tomorrow: to X when `i` is even, to LinkedIn when odd. */
async function seed(n: number): Promise<{ post_id: string; at: string; platform: string }[]> {
  const items = Array.from({ length: n }, (_, i) => {
    const platform = i % 2 === 0 ? ('x' as const) : ('linkedin' as const);
    return {
      item_key: `k${i}`,
      caption: `shift ${i}`,
      targets: [{ platform, social_account_id: IDS.accounts[platform] }],
      scheduled_at: at(DAY + i * HOUR),
    };
  });
  const res = await sb.api('POST', '/api/cli/posts/bulk', { body: { batch_id: randomUUID(), items } });
  expect(res.status).toBe(201);
  return (res.body.items as { index: number; post_id: string }[]).map((r) => ({
    post_id: r.post_id,
    at: items[r.index]!.scheduled_at,
    platform: items[r.index]!.targets[0]!.platform,
  }));
}

async function scheduled(): Promise<Delivery[]> {
  return (await sb.api('GET', '/api/cli/posts?status=scheduled&limit=100')).body.posts as Delivery[];
}

describe('postdesk posts update --shift', () => {
  it('moves every post the filters match by 2d in one bulk request, and prints one result per post as JSON', async () => {
    const posts = await seed(10);
    const run = await cli('posts', 'update', '--shift', '2d', '--platform', 'x', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out) as {
      total: number;
      updated: number;
      failed: number;
      requests: number;
      results: { post_id: string; ok: boolean; scheduled_at: string }[];
    };
    const xs = posts.filter((p) => p.platform === 'x');
    expect(json).toMatchObject({ total: 5, updated: 5, failed: 0, requests: 1 });
    expect(new Set(json.results.map((r) => r.post_id))).toEqual(new Set(xs.map((p) => p.post_id)));
    const now = await scheduled();
    for (const p of posts) {
      const d = now.find((x) => x.post_id === p.post_id)!;
      // X posts moved two days; LinkedIn posts stayed.
      expect(Date.parse(d.scheduled_at!)).toBe(Date.parse(p.at) + (p.platform === 'x' ? 2 * DAY : 0));
    }
  });

  it('filters by time range and accepts hours backwards; a dry run sends nothing', async () => {
    const posts = await seed(6);
    const dry = await cli(
      'posts',
      'update',
      '--shift',
      '-3h',
      '--from',
      at(DAY + 2 * HOUR),
      '--to',
      at(DAY + 4 * HOUR),
      '--dry-run',
      '--json',
    );
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.out) as {
      dry_run: boolean;
      total: number;
      updates: { post_id: string; to: string }[];
    };
    expect(plan.dry_run).toBe(true);
    expect(plan.updates.map((u) => u.post_id).sort()).toEqual([posts[2]!.post_id, posts[3]!.post_id].sort());
    expect(plan.updates.find((u) => u.post_id === posts[2]!.post_id)?.to).toBe(at(DAY - HOUR));
    expect((await scheduled()).find((d) => d.post_id === posts[2]!.post_id)?.scheduled_at).toBe(posts[2]!.at);

    const run = await cli(
      'posts',
      'update',
      '--shift',
      '-3h',
      '--from',
      at(DAY + 2 * HOUR),
      '--to',
      at(DAY + 4 * HOUR),
    );
    expect(run.code).toBe(0);
    expect(run.out).toContain('2 of 2 post(s) moved in 1 request(s)');
    expect((await scheduled()).find((d) => d.post_id === posts[3]!.post_id)?.scheduled_at).toBe(at(DAY));
  });

  it('reports a refused post on its own and exits 1; refuses a shift it cannot read', async () => {
    const posts = await seed(3);
    // Moved into the past: refused by the service, entry by entry.
    const run = await cli('posts', 'update', '--shift', '-25h', '--json');
    expect(run.code).toBe(1);
    const json = JSON.parse(run.out) as {
      updated: number;
      failed: number;
      results: { post_id: string; ok: boolean; error: string | null }[];
    };
    expect(json.failed).toBe(2);
    expect(json.updated).toBe(1);
    expect(json.results.find((r) => r.post_id === posts[2]!.post_id)?.ok).toBe(true);
    expect(json.results.find((r) => r.post_id === posts[0]!.post_id)?.error).toMatch(/future/);

    const bad = await cli('posts', 'update', '--shift', '2 weeks');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('days, hours or minutes');
    const both = await cli('posts', 'update', posts[0]!.post_id, '--shift', '1d');
    expect(both.code).toBe(2);
  });

  it('with --platform, says each post moves whole and lists every platform it goes to in the dry run', async () => {
    const both = await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'to two accounts',
        scheduled_at: at(DAY),
        targets: [
          { platform: 'x', social_account_id: IDS.accounts.x },
          { platform: 'linkedin', social_account_id: IDS.accounts.linkedin },
        ],
      },
    });
    expect(both.status).toBe(201);
    const dry = await cli('posts', 'update', '--shift', '1h', '--platform', 'x', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.out) as { updates: { post_id: string; platforms: string[] }[] };
    expect(plan.updates).toEqual([
      expect.objectContaining({ post_id: both.body.post.id, platforms: ['linkedin', 'x'] }),
    ]);
    const human = await cli('posts', 'update', '--shift', '1h', '--platform', 'x', '--dry-run');
    expect(human.out + human.err).toMatch(/each moves whole, on every account it goes to/);
  });
});
