import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import type { DeliveryFailed } from '../../src-shared/ipc/posts';
import type { Delivery } from '../../src-shared/api/posts';
import { openLocal } from '../../src-main/core/services';
import { MemorySecretStore } from '../../src-main/host/memory-secret-store';
import { createDeliveryWatch } from '../../src-main/core/bridge/delivery-watch';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { CONFIRMS_ADDRESS } from '../helpers/confirm';

/**
 * `postdesk web` on a real sandbox over HTTP: post creates go through the outbox (one post each even
 * when the connection is reset after the service committed), failed deliveries are reported once, and
 * the `updates` and `app:pendingRoute` channels answer as a host without an updater.
 */

let sb: TestSandbox;
let host: TestWebHost;
let dir: string;
let page: WsBridge;

const at = (minutes: number) => new Date(Date.parse(FIXTURE_NOW) + minutes * 60_000).toISOString();

beforeAll(async () => {
  // x fails every publish attempt, until the sandbox's retries are spent.
  sb = await startTestSandbox(demoFixture({ publishFailures: { x: 99 } }));
  host = await startTestWebHost('postdesk-web-outbox-', { confirm: CONFIRMS_ADDRESS });
  ({ dir, page } = host);
  const connected = await page.bridge.connection.connect({ base_url: sb.url, api_key: TEST_KEYS.a });
  expect(connected.ok).toBe(true);
});

afterAll(async () => {
  await host?.close();
  await sb?.close();
});

async function postIdsWithCaption(caption: string): Promise<string[]> {
  const res = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?limit=100');
  return [...new Set(res.body.posts.filter((d) => d.caption === caption).map((d) => d.post_id))];
}

describe('posts:create through the outbox', () => {
  it('creates exactly one post per create while the service resets connections after committing', async () => {
    const before = (await sb.control.state()).posts;
    await sb.control.faults({ reset_rate: 0.5, seed: 4, paths: ['/api/cli/posts'] });
    const target = { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' as const };
    const requests = [
      { caption: 'outbox publish 1', targets: [target] },
      { caption: 'outbox schedule', targets: [target], scheduled_at: at(60) },
      { caption: 'outbox publish 2', targets: [target] },
      { caption: 'outbox draft', targets: [target], action: 'draft' as const },
    ];
    const answers = [];
    for (const req of requests) answers.push(await page.bridge.posts.create(req));
    await sb.control.faults({});

    for (const [i, res] of answers.entries()) {
      expect(res.ok, JSON.stringify(res)).toBe(true);
      if (!res.ok) continue;
      const caption = requests[i]?.caption ?? '';
      // The same shape as the service's answer, read back after the outbox sent it.
      expect(res.value.post.caption).toBe(caption);
      expect(res.value.social_posts.map((d) => d.post_id)).toEqual([res.value.post.id]);
      expect(res.value.outbox_entry_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await postIdsWithCaption(caption)).toEqual([res.value.post.id]);
    }
    expect((await sb.control.state()).posts).toBe(before + requests.length);

    // Each went through the outbox in the local store: drafts and schedules as bulk items, publish-now single.
    const db = new Database(join(dir, 'data', 'postdesk.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT kind, state FROM outbox_entries ORDER BY created_at').all() as {
        kind: string;
        state: string;
      }[];
      expect(rows.map((r) => r.state)).toEqual(requests.map(() => 'sent'));
      expect(rows.map((r) => r.kind)).toEqual(['single', 'bulk', 'single', 'bulk']);
    } finally {
      db.close();
    }
  });

  it('answers a refusal as the service worded it, and keeps nothing queued for it', async () => {
    const res = await page.bridge.posts.create({
      caption: 'to an account that is not mine',
      targets: [{ social_account_id: IDS.accountB, platform: 'x' }],
    });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.kind).toBe('api');
      expect(res.error.status).toBeGreaterThanOrEqual(400);
      expect(res.error.status).toBeLessThan(500);
    }
    expect(await postIdsWithCaption('to an account that is not mine')).toEqual([]);
  });
});

describe('a publish nobody can place', () => {
  it('is listed by posts:queued as needing a decision, and each answer is carried out once', async () => {
    const linkedin = { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' as const };
    // What an earlier session left: two publishes whose answers were lost and that the lists could not place.
    const db = new Database(join(dir, 'data', 'postdesk.db'));
    const { scope } = db.prepare('SELECT scope FROM outbox_entries LIMIT 1').get() as { scope: string };
    const insert = db.prepare(
      `INSERT INTO outbox_entries (id, scope, kind, request, state, attempts, sent_at, known_post_ids, created_at,
                                   updated_at, error)
       VALUES (?, ?, 'single', ?, 'needs_decision', 1, 1, '[]', ?, ?, ?)`,
    );
    const t = new Date().toISOString();
    const secretish = JSON.stringify({ message: 'socket hang up at 10.0.0.1' });
    insert.run(
      'e-drop',
      scope,
      JSON.stringify({ caption: 'undecided: drop me', targets: [linkedin] }),
      t,
      t,
      secretish,
    );
    insert.run(
      'e-send',
      scope,
      JSON.stringify({ caption: 'undecided: send me', targets: [linkedin] }),
      t,
      t,
      secretish,
    );
    db.close();

    const changes: string[][] = [];
    const off = page.bridge.posts.onDidChangeQueued((e) => changes.push(e.posts.map((p) => p.entry_id)));
    const listed = await page.bridge.posts.queued();
    expect(listed.ok).toBe(true);
    const posts = listed.ok ? listed.value.posts : [];
    expect(posts.map((p) => [p.entry_id, p.state, p.action])).toEqual([
      ['e-drop', 'needs_decision', 'publish'],
      ['e-send', 'needs_decision', 'publish'],
    ]);
    expect(posts[0]).toMatchObject({
      caption: 'undecided: drop me',
      targets: [linkedin],
      scheduled_at: null,
    });
    // Nothing of the transport's failure reaches the page.
    expect(JSON.stringify(posts)).not.toContain('hang up');

    const before = (await sb.control.state()).posts;
    expect(await page.bridge.posts.decideQueued({ entry_id: 'e-drop', decision: 'drop' })).toEqual({
      ok: true,
      value: { ok: true },
    });
    expect(await page.bridge.posts.decideQueued({ entry_id: 'e-drop', decision: 'send_again' })).toEqual({
      ok: true,
      value: { ok: false },
    });
    await expect.poll(() => changes.at(-1)).toEqual(['e-send']);
    expect(await postIdsWithCaption('undecided: drop me')).toEqual([]);

    expect(await page.bridge.posts.decideQueued({ entry_id: 'e-send', decision: 'send_again' })).toEqual({
      ok: true,
      value: { ok: true },
    });
    await expect.poll(async () => (await postIdsWithCaption('undecided: send me')).length).toBe(1);
    await expect.poll(() => changes.at(-1)).toEqual([]);
    expect(await page.bridge.posts.queued()).toEqual({ ok: true, value: { posts: [] } });
    expect((await sb.control.state()).posts).toBe(before + 1);
    off();
  });
});

describe('failed deliveries', () => {
  it('reports a delivery that failed once, with its deep link, as an answer and as an event', async () => {
    // The first check of a service only records what had already failed.
    const first = await page.bridge.posts.checkFailures();
    expect(first).toEqual({ ok: true, value: { failed: [] } });
    const events: DeliveryFailed[] = [];
    const off = page.bridge.posts.onDidFailDelivery((d) => events.push(d));

    const created = await page.bridge.posts.create({
      caption: 'this one fails on x',
      targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      scheduled_at: at(1),
    });
    expect(created.ok).toBe(true);
    const deliveryId = created.ok ? created.value.social_posts[0]?.id : undefined;
    expect(deliveryId).toBeTruthy();
    expect(await page.bridge.posts.checkFailures()).toEqual({ ok: true, value: { failed: [] } });

    // Three attempts, five minutes apart, on the sandbox's virtual clock.
    for (let i = 0; i < 4; i++) await sb.control.advance(6 * 60_000);
    const res = await sb.api<{ posts: Delivery[] }>('GET', '/api/cli/posts?status=failed&limit=100');
    expect(res.body.posts.map((d) => d.id)).toContain(deliveryId);

    const found = await page.bridge.posts.checkFailures();
    expect(found.ok).toBe(true);
    const failed = found.ok ? found.value.failed : [];
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      id: deliveryId,
      platform: 'x',
      link: `postdesk://post/${deliveryId}`,
    });
    expect(failed[0]?.error).toBeTruthy();
    await expect.poll(() => events.map((e) => e.id)).toEqual([deliveryId]);

    // Reported once: neither a second check nor a new watcher on the same store reports it again.
    expect(await page.bridge.posts.checkFailures()).toEqual({ ok: true, value: { failed: [] } });
    const local = openLocal(join(dir, 'data'), new MemorySecretStore());
    try {
      const { createApiClient } = await import('../../src-main/core/api/client');
      const client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a });
      const again = createDeliveryWatch({ store: local.store, client: () => client, scope: () => sb.url });
      expect(await again.checkNow()).toEqual([]);
      again.dispose();
      await client.close();
    } finally {
      local.store.close();
    }
    off();
    expect(events).toHaveLength(1);
  });
});

describe('a host without an updater', () => {
  it('answers updates as managed by the desktop app, on the channel chosen in settings', async () => {
    const state = await page.bridge.updates.state();
    expect(state).toMatchObject({ ok: true, value: { phase: 'unsupported', channel: 'stable' } });
    const changed = await page.bridge.settings.update({ update_channel: 'beta', start_at_login: true });
    expect(changed).toMatchObject({ ok: true, value: { update_channel: 'beta', start_at_login: true } });
    expect(await page.bridge.updates.check()).toMatchObject({
      ok: true,
      value: { phase: 'unsupported', channel: 'beta', availableVersion: null },
    });
    expect(await page.bridge.updates.restartNow()).toMatchObject({
      ok: true,
      value: { phase: 'unsupported' },
    });
  });

  it('has no pending route when no deep link arrived', async () => {
    expect(await page.bridge.app.pendingRoute()).toEqual({ ok: true, value: { route: null } });
  });
});
