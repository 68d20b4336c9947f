import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src-sandbox/app';
import { SCHEMA_VERSION } from '../../src-sandbox/migrations/migrate';
import { STORE_FIXTURE } from '../helpers/make-store-fixture';
import { FIXTURE_NOW, IDS, TEST_KEYS, jsonOf, type Loose } from '../helpers/sandbox';

/**
 * A `--data` store written by the build before numbered migrations (test/fixtures/sandbox/stores, made by
 * test/helpers/make-store-fixture.ts) opens in this build, is upgraded in place and keeps every record.
 */

const STORE_BEFORE_MIGRATIONS = resolve(__dirname, '../fixtures/sandbox/stores/before-migrations.sql');

const dirs: string[] = [];
const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data directory holding the fixture store, as the older build left it. */
function oldStore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-upgrade-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'sandbox.db'));
  db.exec(readFileSync(STORE_BEFORE_MIGRATIONS, 'utf8'));
  db.close();
  return dir;
}

const rowCounts = (file: string): Record<string, number> => {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
};

const userVersion = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return Number(db.pragma('user_version', { simple: true }));
  } finally {
    db.close();
  }
};

async function open(
  dir: string,
): Promise<RunningSandbox & { get(path: string, key?: string): Promise<Loose> }> {
  const sandbox = await startSandbox({ port: 0, dataDir: dir, quiet: true });
  running.push(sandbox);
  return Object.assign(sandbox, {
    get: (path: string, key: string = TEST_KEYS.a) =>
      jsonOf(fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${key}` } })),
  });
}

describe('a --data store of the build before numbered migrations', () => {
  it('opens, is upgraded in place to the current version and keeps every record', async () => {
    const dir = oldStore();
    const file = join(dir, 'sandbox.db');
    expect(userVersion(file)).toBe(0);
    const before = rowCounts(file);
    expect(before.posts).toBeGreaterThan(5);

    const sb = await open(dir);
    expect(userVersion(file)).toBe(SCHEMA_VERSION);
    // Nothing was reloaded: the clock, the keys and every row are the old store's.
    expect((await jsonOf(fetch(`${sb.url}/_sandbox/clock`))).now).toBe(FIXTURE_NOW);
    expect(sb.apiKey).toBeNull();
    // Every row stays; step 2 adds the posted delivery of the auto run's direct upload to tiktok.
    const after = rowCounts(file);
    for (const [table, n] of Object.entries(before)) {
      expect([table, after[table]]).toEqual([table, table === 'deliveries' ? n + 1 : n]);
    }

    const posts = (await sb.get('/api/cli/posts?limit=100')).posts as Loose[];
    expect(posts.map((p) => `${p.caption}:${p.status}`).sort()).toEqual(
      [
        'a draft:draft',
        'a schedule:scheduled',
        'published now:posted',
        'bulk one:draft',
        'bulk two, edited:scheduled',
        'bulk three:draft',
        'from the draft run:draft',
        'from the auto run:posted',
        'from the auto run:posted',
      ].sort(),
    );
    const fromAutoRun = posts.filter((p) => p.caption === 'from the auto run');
    const runId = fromAutoRun[0].run_id as string;
    expect(fromAutoRun.map((p) => [p.platform, p.run_id]).sort()).toEqual([
      ['linkedin', runId],
      ['tiktok', runId],
    ]);
    const tiktok = fromAutoRun.find((p) => p.platform === 'tiktok');
    expect(tiktok.direct_upload_id).toEqual(expect.any(String));
    expect(tiktok.external_url).toMatch(/^https:\/\/www\.tiktok\.com\/@sandbox\/video\/tiktok_/);
    const run = (await sb.get(`/api/agent/runs/${runId}?executor_id=${IDS.executor}`)).run;
    expect(run.result.published_targets[0].direct_upload_id).toBe(tiktok.direct_upload_id);
    expect([...run.result.social_post_ids].sort()).toEqual(fromAutoRun.map((p) => p.id).sort());
    const analytics = await sb.get('/api/cli/analytics?platform=tiktok');
    expect(analytics.totals.posts).toBe(1);
    expect(((await sb.get('/api/cli/posts', TEST_KEYS.b)).posts as Loose[]).map((p) => p.caption)).toEqual([
      'owner b',
    ]);
    const batch = await sb.get(`/api/cli/posts/bulk?batch_id=${STORE_FIXTURE.batchId}`);
    expect(batch).toMatchObject({ total: 3, created_count: 3 });
    const asset = await jsonOf(
      fetch(`${sb.url}/api/cli/media/uploads`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' },
        body: JSON.stringify({ asset_id: STORE_FIXTURE.assetId }),
      }),
    );
    expect(asset).toMatchObject({ id: STORE_FIXTURE.assetId, mime_type: 'image/png' });
    expect(((await sb.get('/api/cli/articles')).articles as Loose[]).map((a) => a.status)).toEqual([
      'published',
    ]);
    const automations = (await sb.get('/api/automations')).automations as Loose[];
    expect(automations.map((a) => a.id).sort()).toEqual(
      [IDS.automation, STORE_FIXTURE.autoAutomation].sort(),
    );
    expect(automations.find((a) => a.id === IDS.automation)).toMatchObject({
      revision: 1,
      acked_revision: 1,
    });

    // And it keeps working: a new post lands beside the old ones.
    const created = await fetch(`${sb.url}/api/cli/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEYS.a}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        caption: 'after the upgrade',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      }),
    });
    expect(created.status).toBe(201);
  });

  it('is left alone when opened again, and a store newer than this build is refused, not misread', async () => {
    const dir = oldStore();
    const file = join(dir, 'sandbox.db');
    const first = await open(dir);
    await first.close();
    const upgraded = rowCounts(file);
    const second = await open(dir);
    await second.close();
    expect(rowCounts(file)).toEqual(upgraded);
    expect(userVersion(file)).toBe(SCHEMA_VERSION);

    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(startSandbox({ port: 0, dataDir: dir, quiet: true })).rejects.toThrow(
      `the sandbox store is at schema version ${SCHEMA_VERSION + 1}, newer than this build knows (${SCHEMA_VERSION})`,
    );
  });
});
