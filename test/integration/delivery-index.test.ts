import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import type { Delivery } from '../../src-shared/api/posts';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { CONFIRMS_ADDRESS } from '../helpers/confirm';
import { scaled } from '../helpers/timeouts';

/**
 * The local delivery index behind `posts:list` and `calendar:range`, through a real `postdesk web`
 * on a real sandbox over HTTP: a 250-row bulk import, single creates, an update and a delete all land
 * in the index (the service itself never lists more than 100), and the bridge pages through them.
 */

let sb: TestSandbox;
let host: TestWebHost;
let dir: string;
let page: WsBridge;

const ROWS = 250;
const LINKEDIN = { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' as const };
const at = (minutes: number) =>
  new Date(Date.parse('2031-01-01T00:00:00.000Z') + minutes * 60_000).toISOString();

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  host = await startTestWebHost('postdesk-index-', { confirm: CONFIRMS_ADDRESS });
  ({ dir, page } = host);
  const connected = await page.bridge.connection.connect({ base_url: sb.url, api_key: TEST_KEYS.a });
  expect(connected.ok).toBe(true);
}, scaled(60_000));

afterAll(async () => {
  await host?.close();
  await sb?.close();
});

/** The index as it is in the app's store file, read beside the app. */
function indexed(): Map<string, { status: string; caption: string; post_id: string; platform: string }> {
  const db = new Database(join(dir, 'data', 'postdesk.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, status, caption, post_id, platform FROM deliveries').all() as {
      id: string;
      status: string;
      caption: string;
      post_id: string;
      platform: string;
    }[];
    return new Map(rows.map((r) => [r.id, r]));
  } finally {
    db.close();
  }
}

async function ok<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

async function listAll(query: { status?: string; platform?: 'linkedin' | 'x' }): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await ok(page.bridge.posts.list({ ...query, offset, limit: 100 }));
    expect(res.offset).toBe(offset);
    out.push(...res.posts);
    if (offset + 100 >= res.total) {
      expect(out).toHaveLength(res.total);
      return out;
    }
  }
}

describe('the delivery index', () => {
  it(
    'holds every delivery the app created, updated or deleted, and posts:list pages through more than 100',
    async () => {
      // 250 rows: every 5th a draft, every 10th (a draft too) to two accounts → 275 deliveries, 75 drafts.
      const lines = ['caption,targets,scheduled_at,action'];
      for (let i = 0; i < ROWS; i++) {
        const targets =
          i % 10 === 0
            ? `x:${IDS.accounts.x};linkedin:${IDS.accounts.linkedin}`
            : `linkedin:${IDS.accounts.linkedin}`;
        lines.push(i % 5 === 0 ? `bulk ${i},${targets},,draft` : `bulk ${i},${targets},${at(i)},`);
      }
      const plan = await ok(page.bridge.bulk.plan({ source: { text: lines.join('\n'), name: 'index.csv' } }));
      expect(plan.valid_count).toBe(ROWS);
      const submitted = await ok(page.bridge.bulk.submit({ plan_id: plan.plan_id }));
      expect(submitted.created_count).toBe(ROWS);

      // Learned from the bulk answers alone (combined with the rows sent), before any list.
      let idx = indexed();
      expect(idx.size).toBe(275);
      const bulkRows = [...idx.values()];
      expect(bulkRows.filter((d) => d.status === 'draft')).toHaveLength(75);
      expect(bulkRows.filter((d) => d.status === 'scheduled')).toHaveLength(200);
      expect(bulkRows.filter((d) => d.platform === 'x').every((d) => /^bulk \d*0$/.test(d.caption))).toBe(
        true,
      );

      // A few single creates through the outbox: publish now, schedule, draft.
      const created = [];
      for (const req of [
        { caption: 'single now', targets: [LINKEDIN] },
        { caption: 'single later', targets: [LINKEDIN], scheduled_at: at(5_000) },
        { caption: 'single draft', targets: [LINKEDIN], action: 'draft' as const },
      ]) {
        created.push(await ok(page.bridge.posts.create(req)));
      }
      idx = indexed();
      expect(idx.size).toBe(278);
      for (const c of created)
        for (const d of c.social_posts) expect(idx.get(d.id)?.caption).toBe(c.post.caption);

      // Update and delete rows far older than the service's newest 100.
      const byCaption = (caption: string) =>
        [...idx.entries()].find(([, d]) => d.caption === caption)?.[0] ?? '';
      const oldScheduled = byCaption('bulk 1');
      const oldDraft = byCaption('bulk 5');
      await ok(page.bridge.posts.update({ id: oldScheduled, caption: 'bulk 1, edited' }));
      await ok(page.bridge.posts.delete({ id: oldDraft }));
      idx = indexed();
      expect(idx.get(oldScheduled)?.caption).toBe('bulk 1, edited');
      expect(idx.has(oldDraft)).toBe(false);
      expect(idx.size).toBe(277);

      // posts:list pages through all of them, newest first, and agrees with the service's own count.
      const state = await sb.control.state();
      const serviceTotal = Object.values(state.deliveries).reduce((a, b) => a + b, 0);
      const first = await ok(page.bridge.posts.list({ limit: 100 }));
      expect(first.total).toBe(277);
      expect(first.total).toBe(serviceTotal);
      expect(first.posts[0]?.caption).toBe('single draft');
      const all = await listAll({});
      expect(new Set(all.map((d) => d.id)).size).toBe(277);
      expect(all.find((d) => d.id === oldScheduled)?.caption).toBe('bulk 1, edited');
      expect(all.some((d) => d.id === oldDraft)).toBe(false);

      const drafts = await listAll({ status: 'draft' });
      expect(drafts).toHaveLength(state.deliveries.draft ?? 0);
      expect(drafts).toHaveLength(75); // one deleted, one created
      expect((await listAll({ status: 'scheduled' })).length).toBe(state.deliveries.scheduled ?? 0);
      expect((await listAll({ platform: 'x' })).length).toBe(25);

      // The calendar reads the index too, earliest first.
      const cal = await ok(page.bridge.calendar.range({ start: at(0), end: at(60) }));
      const when = cal.deliveries.map((d) => d.scheduled_at ?? '');
      expect(cal.deliveries.length).toBeGreaterThan(40);
      expect(when).toEqual([...when].sort());
      expect(cal.deliveries.every((d) => d.status === 'scheduled')).toBe(true);
    },
    scaled(60_000),
  );
});
