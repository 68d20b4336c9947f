import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Delivery } from '../../src-shared/api/posts';
import type { ExportProgress } from '../../src-shared/ipc/exports';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { CONFIRMS_ADDRESS } from '../helpers/confirm';
import { scaled } from '../helpers/timeouts';

/**
 * `exports:run` through a real `postdesk web` (no save dialog there) on a real sandbox over HTTP: the export is
 * a one-time download the page fetches with its launch secret, and the CSV, edited and dropped on the Bulk
 * screen's channels, plans and sends an update of the edited caption alone.
 */

let sb: TestSandbox;
let host: TestWebHost;
const posts: string[] = [];

async function ok<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

async function listed(): Promise<Map<string, Delivery>> {
  const res = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?limit=100');
  return new Map(res.body.posts.map((d) => [d.id, d]));
}

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  host = await startTestWebHost('postdesk-export-', { confirm: CONFIRMS_ADDRESS });
  await ok(host.page.bridge.connection.connect({ base_url: sb.url, api_key: TEST_KEYS.a }));
  // Through the app (a bulk import), so its index knows every post: the service itself lists at most 100.
  const csv = stringify(
    Array.from({ length: 120 }, (_, i) => ({
      caption: i === 7 ? '@here see the =SUM(A1) trick' : `Post ${i}`,
      targets: `x:${IDS.accounts.x}`,
      scheduled_at: new Date(Date.parse('2031-02-01T08:00:00Z') + i * 3_600_000).toISOString(),
    })),
    { header: true },
  );
  const plan = await ok(host.page.bridge.bulk.plan({ source: { text: csv, name: 'seed.csv' } }));
  expect(plan.valid_count).toBe(120);
  expect(await ok(host.page.bridge.bulk.submit({ plan_id: plan.plan_id }))).toMatchObject({
    created_count: 120,
  });
  const all = await ok(host.page.bridge.posts.list({ limit: 500 }));
  const byCaption = new Map(all.posts.map((d) => [d.caption, d.post_id]));
  for (let i = 0; i < 120; i++)
    posts.push(byCaption.get(i === 7 ? '@here see the =SUM(A1) trick' : `Post ${i}`) as string);
  expect(new Set(posts).size).toBe(120);
}, scaled(60_000));

afterAll(async () => {
  await host?.close();
  await sb?.close();
});

const download = (url: string, token?: string) =>
  fetch(
    `${host.web.host.origin}${url.replace(/token=[^&]+/, token === undefined ? '$&' : `token=${token}`)}`,
  );

describe('exports:run in postdesk web', () => {
  it('prepares a one-time download of every post (beyond the 100 the service lists), with progress', async () => {
    const progress: ExportProgress[] = [];
    const off = host.page.bridge.exports.onDidProgress((p) => void progress.push(p));
    const r = await ok(
      host.page.bridge.exports.run({
        what: { kind: 'posts' },
        format: 'csv',
        export_id: 'e1',
        timezone: 'UTC',
      }),
    );
    off();
    expect(r).toMatchObject({ outcome: 'download', records: 120 });
    if (r.outcome !== 'download') throw new Error('not a download');
    expect(r.name).toMatch(/^postdesk-posts-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(progress.at(-1)).toEqual({ export_id: 'e1', records: 120 });

    // Without this launch's secret, nothing; with it, the file once, as an attachment.
    expect((await download(r.url, 'not-the-secret')).status).toBe(403);
    const res = await download(r.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`filename="${r.name}"`);
    const rows = parse(await res.text(), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((x) => x.post_id))).toEqual(new Set(posts));
    expect(rows.find((x) => x.post_id === posts[7])?.caption).toBe("'@here see the =SUM(A1) trick");
    expect((await download(r.url)).status).toBe(404);
    // Once sent, the private copy goes.
    await vi.waitFor(() => expect(readdirSync(join(host.web.stagingDir, 'downloads'))).toEqual([]));
  });

  it('exports the calendar range, analytics and says plainly when there is no run history here', async () => {
    const cal = await ok(
      host.page.bridge.exports.run({
        what: { kind: 'calendar', start: '2031-02-01T00:00:00Z', end: '2031-02-01T10:00:00Z' },
        format: 'json',
        export_id: 'e2',
      }),
    );
    if (cal.outcome !== 'download') throw new Error('not a download');
    const json = (await (await download(cal.url)).json()) as { caption: string }[];
    expect(json.map((p) => p.caption).sort()).toEqual(['Post 0', 'Post 1']);
    const an = await ok(
      host.page.bridge.exports.run({
        what: { kind: 'analytics', query: {} },
        format: 'csv',
        export_id: 'e3',
      }),
    );
    expect(an.outcome).toBe('download');
    const runs = await host.page.bridge.exports.run({
      what: { kind: 'runs' },
      format: 'csv',
      export_id: 'e4',
    });
    expect(runs.ok).toBe(false);
    if (!runs.ok) expect(runs.error.message).toBe('Run history is not available here.');
  });

  it('re-imports the edited CSV on the Bulk channels as an update of that caption alone', async () => {
    const r = await ok(
      host.page.bridge.exports.run({ what: { kind: 'posts' }, format: 'csv', export_id: 'e5' }),
    );
    if (r.outcome !== 'download') throw new Error('not a download');
    const rows = parse(await (await download(r.url)).text(), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    const edited = rows.map((x) =>
      x.post_id === posts[3] ? { ...x, caption: 'Edited in a spreadsheet' } : x,
    );
    const before = await listed();
    const stateBefore = await sb.control.state();

    const plan = await ok(
      host.page.bridge.bulk.plan({
        source: { text: stringify(edited, { header: true }), name: 'edited.csv' },
      }),
    );
    expect(plan).toMatchObject({ mode: 'update', valid_count: 1, unchanged_count: 119, invalid_count: 0 });
    expect(plan.rows.find((x) => x.post_id === posts[3])?.changes).toEqual(['caption']);
    const sent = await ok(host.page.bridge.bulk.submit({ plan_id: plan.plan_id }));
    expect(sent).toMatchObject({ updated_count: 1, failed_count: 0, unchanged_count: 119, created_count: 0 });

    const after = await listed();
    for (const [id, d] of before) {
      const now = after.get(id) as Delivery;
      if (d.post_id === posts[3]) expect(now.caption).toBe('Edited in a spreadsheet');
      else expect(now).toEqual(d);
    }
    const stateAfter = await sb.control.state();
    expect(stateAfter.posts).toBe(stateBefore.posts);
    expect(stateAfter.deliveries).toEqual(stateBefore.deliveries);
    expect(stateAfter.batches).toBe(stateBefore.batches);

    // The same plan is not sent twice; the same file planned again finds nothing left to change.
    expect((await host.page.bridge.bulk.submit({ plan_id: plan.plan_id })).ok).toBe(false);
    const again = await ok(
      host.page.bridge.bulk.plan({
        source: { text: stringify(edited, { header: true }), name: 'edited.csv' },
      }),
    );
    expect(again).toMatchObject({ mode: 'update', valid_count: 0, unchanged_count: 120 });
    expect(existsSync(host.web.stagingDir)).toBe(true);
  });
});
