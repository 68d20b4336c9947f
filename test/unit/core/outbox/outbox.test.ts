import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { ValidationError } from '../../../../src-main/core/api/errors';
import { OUTBOX_MIGRATIONS } from '../../../../src-main/core/outbox/migrations';
import { createOutbox, type Outbox } from '../../../../src-main/core/outbox/outbox';
import { openStore, type Store } from '../../../../src-main/core/store/store';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../../../helpers/sandbox';

let sb: TestSandbox;
let dir: string;
let store: Store;
let client: ApiClient;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: null }));
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(demoFixture({ now: null }));
  dir = mkdtempSync(join(tmpdir(), 'pd-outbox-'));
  store = openStore(join(dir, 'postdesk.db'));
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 1, minTimeoutMs: 5 } });
});
afterEach(async () => {
  await client.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const X = { platform: 'x' as const, social_account_id: IDS.accounts.x };
/** A pid that belonged to a process that has exited: what a crash leaves behind. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}
/** Puts an entry in the state a process killed mid-send leaves behind. */
function crashedWhileSending(id: string, sentAt: number | null): void {
  store.db
    .prepare(
      'UPDATE outbox_entries SET state = ?, owner = ?, sent_at = ?, attempts = 1, known_post_ids = ? WHERE id = ?',
    )
    .run('sending', `${hostname()}|${deadPid()}|x`, sentAt, '[]', id);
}

describe('outbox', () => {
  it('writes before sending, validates first, and sends drafts, schedules and publishes', async () => {
    const outbox = createOutbox(store, client);
    expect(() => outbox.enqueuePost({ caption: 'x'.repeat(2201), targets: [X] })).toThrow(ValidationError);
    const draft = outbox.enqueuePost({ caption: 'd', action: 'draft', targets: [X] }).entryId;
    const sched = outbox.enqueuePost({
      caption: 's',
      scheduled_at: '2099-01-01T00:00:00Z',
      targets: [X],
    }).entryId;
    const now = outbox.enqueuePost({ caption: 'n', targets: [X] }).entryId;
    expect(outbox.list().map((e) => [e.state, e.kind])).toEqual([
      ['pending', 'single'],
      ['pending', 'bulk'],
      ['pending', 'bulk'],
    ]);
    expect((await sb.control.state()).posts).toBe(0);

    const report = await outbox.flush();
    expect(report).toMatchObject({ sent: 3, pending: 0, unconfirmed: 0, failed: 0 });
    const { posts } = await client.listPosts();
    const byCaption = Object.fromEntries(posts.map((p) => [p.caption, p]));
    expect(byCaption.d?.status).toBe('draft');
    expect(byCaption.s?.status).toBe('scheduled');
    expect(outbox.get(now)?.result?.postId).toBe(byCaption.n?.post_id);
    expect(outbox.get(draft)?.result?.postId).toBe(byCaption.d?.post_id);
    expect(outbox.get(sched)?.result?.socialPostIds).toEqual([byCaption.s?.id]);
  });

  it('a refused post is failed with the reason, and is not retried', async () => {
    const outbox = createOutbox(store, client);
    const foreign = { platform: 'x' as const, social_account_id: IDS.accountB };
    const a = outbox.enqueuePost({ caption: 'foreign', action: 'draft', targets: [foreign] }).entryId;
    const b = outbox.enqueuePost({ caption: 'foreign now', targets: [foreign] }).entryId;
    await outbox.flush();
    expect(outbox.get(a)?.state).toBe('failed');
    expect(outbox.get(b)?.state).toBe('failed');
    expect(outbox.get(b)?.error?.status).toBeGreaterThanOrEqual(400);
    await outbox.flush({ force: true });
    expect((await sb.control.state()).posts).toBe(0);
  });

  it('without an API key nothing is sent and entries wait', async () => {
    const anon = createApiClient({ baseUrl: sb.url });
    const outbox = createOutbox(store, anon);
    const id = outbox.enqueuePost({ caption: 'later', action: 'draft', targets: [X] }).entryId;
    const report = await outbox.flush();
    expect(report.blocked).toMatch(/POSTDESK_API_KEY/);
    expect(outbox.get(id)).toMatchObject({ state: 'pending', attempts: 0 });
    await anon.close();
  });

  describe('crash recovery', () => {
    it('a bulk send cut off after the service committed is re-sent and lands once', async () => {
      const outbox = createOutbox(store, client);
      const id = outbox.enqueuePost({ caption: 'bulk crash', action: 'draft', targets: [X] }).entryId;
      const e = outbox.get(id)!;
      // The request reached the service, then the process died before recording the answer.
      const first = await client.bulkCreate({
        batch_id: e.batchId!,
        items: [{ item_key: e.itemKey!, caption: 'bulk crash', action: 'draft', targets: [X] }],
      });
      crashedWhileSending(id, null);

      const report = await createOutbox(store, client).replay();
      expect(report.sent).toBe(1);
      expect(outbox.get(id)?.result?.postId).toBe(first.items[0]?.post_id);
      expect((await sb.control.state()).posts).toBe(1);
    });

    it('a publish cut off after it was created is found by reconciliation, not sent again', async () => {
      const outbox = createOutbox(store, client, { settleMs: 0 });
      const id = outbox.enqueuePost({ caption: 'publish crash', targets: [X] }).entryId;
      const sentAt = Date.now();
      const created = await client.createPost({ caption: 'publish crash', targets: [X] });
      crashedWhileSending(id, sentAt);

      await createOutbox(store, client, { settleMs: 0 }).replay();
      expect(outbox.get(id)).toMatchObject({ state: 'sent', result: { postId: created.post.id } });
      expect((await sb.control.state()).posts).toBe(1);
    });

    it('a publish cut off before it reached the service is sent again only after the settle interval', async () => {
      // The clock is the test's, so "before" and "after" the interval do not depend on how busy the machine is.
      let t = Date.UTC(2030, 0, 1);
      const now = () => t;
      const outbox = createOutbox(store, client, { settleMs: 30_000, now });
      // An identical post that existed before: it must not be taken for ours.
      const older = await client.createPost({ caption: 'lost', targets: [X] });
      const id = outbox.enqueuePost({ caption: 'lost', targets: [X] }).entryId;
      crashedWhileSending(id, t);
      store.db
        .prepare('UPDATE outbox_entries SET known_post_ids = ? WHERE id = ?')
        .run(JSON.stringify([older.post.id]), id);

      const restarted = createOutbox(store, client, { settleMs: 30_000, now });
      await restarted.replay();
      expect(outbox.get(id)?.state).toBe('unconfirmed');
      t += 29_000;
      await restarted.flush();
      expect(outbox.get(id)?.state).toBe('unconfirmed');
      expect((await sb.control.state()).posts).toBe(1);

      t += 1_000;
      await restarted.flush();
      expect((await sb.control.state()).posts).toBe(2);
      const { posts } = await client.listPosts();
      const resent = posts.find((d) => d.post_id !== older.post.id);
      expect(resent?.caption).toBe('lost');
      expect(outbox.get(id)).toMatchObject({ state: 'sent', result: { postId: resent?.post_id } });
    });

    it('an entry a live process is sending is left alone', async () => {
      const outbox: Outbox = createOutbox(store, client);
      const id = outbox.enqueuePost({ caption: 'busy', action: 'draft', targets: [X] }).entryId;
      store.db
        .prepare('UPDATE outbox_entries SET state = ?, owner = ? WHERE id = ?')
        .run('sending', `${hostname()}|${process.ppid}|${randomUUID()}`, id);
      await createOutbox(store, client).replay();
      expect(outbox.get(id)?.state).toBe('sending');
      expect((await sb.control.state()).posts).toBe(0);
    });
  });

  describe('a publish the lists cannot place', () => {
    it('is found though the service stored its lone surrogate changed', async () => {
      const caption = 'Half an emoji \uD83D and the rest';
      const outbox = createOutbox(store, client, { settleMs: 0 });
      const id = outbox.enqueuePost({ caption, targets: [X] }).entryId;
      const sentAt = Date.now();
      const created = await client.createPost({ caption, targets: [X] });
      crashedWhileSending(id, sentAt);
      // The service really did change it: an exact compare would miss it.
      expect(created.social_posts[0]?.caption).toBe('Half an emoji \uFFFD and the rest');

      await createOutbox(store, client, { settleMs: 0 }).replay();
      expect(outbox.get(id)).toMatchObject({ state: 'sent', result: { postId: created.post.id } });
      expect((await sb.control.state()).posts).toBe(1);
    });

    it('waits as needs_decision across flushes, and is sent again only when a person says so', async () => {
      let t = Date.now();
      const now = () => t;
      const outbox = createOutbox(store, client, { settleMs: 1_000, now });
      await client.createPost({ caption: 'before', targets: [X] });
      const id = outbox.enqueuePost({ caption: 'unplaceable', targets: [X] }).entryId;
      // Sent, and the answer lost; then 100 newer publishes to the same account fill every window.
      const { posts: seen } = await client.listPosts({ limit: 100 });
      crashedWhileSending(id, t);
      store.db
        .prepare('UPDATE outbox_entries SET fence_at = ? WHERE id = ?')
        .run(Date.parse(seen[0]!.created_at), id);
      const made = await client.createPost({ caption: 'unplaceable', targets: [X] });
      for (let i = 0; i < 100; i++) await client.createPost({ caption: `newer ${i}`, targets: [X] });
      const held = await sb.control.state();

      await outbox.replay();
      expect(outbox.get(id)?.state).toBe('unconfirmed');
      t += 1_000;
      const report = await outbox.flush();
      expect(report).toMatchObject({ needsDecision: 1, unconfirmed: 0, pending: 0 });
      t += 60_000;
      await outbox.flush({ force: true });
      expect(await outbox.settle(id, { timeoutMs: 1 })).toMatchObject({ state: 'needs_decision' });
      expect(outbox.unfinishedCount()).toBe(0);
      expect(await sb.control.state()).toEqual(held);

      // A person decides it was not published: it is sent again, once.
      expect(outbox.retry(id)).toBe(true);
      await outbox.flush();
      expect(outbox.get(id)?.state).toBe('sent');
      expect(outbox.get(id)?.result?.postId).not.toBe(made.post.id);
      expect((await sb.control.state()).posts).toBe(held.posts + 1);
    });

    it('a person who says it was published drops it; nothing is sent', async () => {
      const outbox = createOutbox(store, client);
      const id = outbox.enqueuePost({ caption: 'dropped', targets: [X] }).entryId;
      store.db
        .prepare(`UPDATE outbox_entries SET state = 'needs_decision', sent_at = 1 WHERE id = ?`)
        .run(id);
      expect(outbox.list({ states: ['needs_decision'] }).map((e) => e.id)).toEqual([id]);
      expect(outbox.discard(id)).toBe(true);
      expect(outbox.get(id)).toBeNull();
      await outbox.flush({ force: true });
      expect((await sb.control.state()).posts).toBe(0);
    });

    it('a store written before needs_decision existed keeps its entries', async () => {
      const old = openStore(join(dir, 'v1.db'));
      old.migrate('outbox', OUTBOX_MIGRATIONS.slice(0, 1));
      old.db
        .prepare(
          `INSERT INTO outbox_entries (id, scope, kind, request, state, sent_at, known_post_ids, created_at, updated_at)
           VALUES ('e1', ?, 'single', ?, 'unconfirmed', 5, '[]', '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z')`,
        )
        .run(client.baseUrl, JSON.stringify({ caption: 'kept', targets: [X] }));
      const outbox = createOutbox(old, client);
      expect(old.version('outbox')).toBe(OUTBOX_MIGRATIONS.length);
      expect(outbox.get('e1')).toMatchObject({ state: 'unconfirmed', request: { caption: 'kept' } });
      old.db.prepare(`UPDATE outbox_entries SET state = 'needs_decision' WHERE id = 'e1'`).run();
      expect(outbox.get('e1')?.state).toBe('needs_decision');
      old.close();
    });
  });
});
