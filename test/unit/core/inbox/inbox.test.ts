import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../src-main/core/api/client';
import { createInbox, NotInInboxError, type KnownRun } from '../../../../src-main/core/inbox/inbox';
import { fetchPreview } from '../../../../src-main/core/inbox/preview';
import {
  FIXTURE_NOW,
  IDS,
  TEST_KEYS,
  demoFixture,
  startTestSandbox,
  type TestSandbox,
} from '../../../helpers/sandbox';

/** The agent inbox against the real sandbox: drafts of runs only, approve, reject, edit, previews. */

let sb: TestSandbox;
let client: ApiClient;
const AUTOMATION = IDS.automation;
const now = () => new Date(FIXTURE_NOW);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function uploadPng(): Promise<string> {
  const reserve = await sb.api('POST', '/api/cli/media/uploads', {
    body: {
      content_type: 'image/png',
      content_length: PNG.length,
      content_sha256: createHash('sha256').update(PNG).digest('hex'),
      content_md5: createHash('md5').update(PNG).digest('hex'),
    },
  });
  expect(reserve.status, reserve.text).toBe(201);
  if (!reserve.body.already_uploaded) {
    const put = await fetch(reserve.body.upload_url, {
      method: 'PUT',
      headers: reserve.body.upload_headers,
      body: PNG,
    });
    expect(put.status).toBeLessThan(300);
  }
  const done = await sb.api('PATCH', '/api/cli/media/uploads', { body: { asset_id: reserve.body.asset_id } });
  return done.body.public_url as string;
}

let seq = 0;
/** A draft-mode run of the fixture's automation, completed with this output: the draft an agent makes. */
async function runDraft(
  caption: string,
  media_urls: string[] = [],
): Promise<{ runId: string; postId: string }> {
  seq += 1;
  const start = await sb.api('POST', `/api/agent/automations/${AUTOMATION}/start`, {
    body: {
      executor_id: IDS.executor,
      revision: 1,
      idempotency_key: `${AUTOMATION}:1:inbox-${seq}`,
    },
  });
  expect(start.status, start.text).toBe(200);
  const done = await sb.api('POST', `/api/agent/runs/${start.body.run.id}/complete-local`, {
    key: start.body.run_token,
    body: { caption, ...(media_urls.length ? { media_urls, media_type: 'image' } : {}) },
  });
  expect(done.status, done.text).toBe(200);
  return { runId: start.body.run.id, postId: done.body.post.id };
}

async function handDraft(caption: string): Promise<string> {
  const res = await client.createPost({
    caption,
    action: 'draft',
    targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
  });
  return res.post.id;
}

const known = new Map<string, KnownRun>();
const inbox = () =>
  createInbox({
    client: async () => client,
    now,
    runs: async (ids) => new Map(ids.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : []))),
  });

beforeAll(async () => {
  sb = await startTestSandbox();
  client = createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a, retry: { retries: 0 } });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});
beforeEach(async () => {
  await sb.control.reset(demoFixture());
  known.clear();
});

describe('the agent inbox', () => {
  it('lists the drafts of runs, newest first, grouped by automation; drafts made by hand never appear', async () => {
    const hand = await handDraft('made by hand');
    const first = await runDraft('first clip');
    await sb.control.advance(60_000);
    const second = await runDraft('second clip');
    await sb.control.advance(60_000);
    const other = await runDraft('from another machine');
    known.set(first.runId, {
      local_id: 'local-1',
      automation_id: AUTOMATION,
      automation_name: 'Daily clip',
      state: 'completed',
      scheduled_for: null,
      finished_at: FIXTURE_NOW,
    });
    known.set(second.runId, {
      local_id: 'local-2',
      automation_id: AUTOMATION,
      automation_name: 'Daily clip',
      state: 'completed',
      scheduled_for: null,
      finished_at: FIXTURE_NOW,
    });

    const listed = await inbox().list();
    expect(listed.total).toBe(3);
    const ids = listed.groups.flatMap((g) => g.drafts.map((d) => d.post_id));
    expect(ids).not.toContain(hand);
    // The run this computer does not know comes first (newest), in a group with no automation.
    expect(listed.groups.map((g) => g.automation_name)).toEqual([null, 'Daily clip']);
    expect(listed.groups[0]?.drafts.map((d) => d.post_id)).toEqual([other.postId]);
    expect(listed.groups[1]?.drafts.map((d) => d.post_id)).toEqual([second.postId, first.postId]);
    expect(listed.groups[1]?.drafts[0]).toMatchObject({
      caption: 'second clip',
      run: { id: second.runId, local_id: 'local-2', state: 'completed' },
      targets: [{ platform: 'instagram', social_account_id: IDS.accounts.instagram }],
    });

    const one = await inbox().list({ run_id: first.runId });
    expect(one.groups.flatMap((g) => g.drafts.map((d) => d.post_id))).toEqual([first.postId]);
  });

  it('approves at a chosen time and "now": the service holds them scheduled, and they leave the inbox', async () => {
    const a = await runDraft('approve at a time');
    const b = await runDraft('approve now');
    const at = new Date(Date.parse(FIXTURE_NOW) + 3 * 3600_000).toISOString();
    const box = inbox();
    const [timed] = await box.approve([a.postId], at);
    expect(timed).toMatchObject({ ok: true, scheduled_at: at });
    const [soon] = await box.approve([b.postId]);
    expect(soon?.ok, String(soon?.error)).toBe(true);
    // A minute after the service's now, read from its answers (whole seconds), not this computer's clock.
    const lead = Date.parse(soon?.scheduled_at ?? '') - Date.parse(FIXTURE_NOW);
    expect(lead).toBeGreaterThanOrEqual(60_000);
    expect(lead).toBeLessThan(61_000);

    const scheduled = (await client.listPosts({ status: 'scheduled' })).posts;
    expect(scheduled.find((d) => d.post_id === a.postId)?.scheduled_at).toBe(at);
    expect(scheduled.find((d) => d.post_id === b.postId)).toBeDefined();
    expect((await box.list()).total).toBe(0);
    // "Now" really publishes: a minute on, the sandbox posts it.
    await sb.control.advance(61_000);
    const posted = (await client.listPosts({ status: 'posted' })).posts;
    expect(posted.map((d) => d.post_id)).toContain(b.postId);
  });

  it('rejects by deleting every delivery of the draft; a hand-made draft is refused, not touched', async () => {
    const hand = await handDraft('keep me');
    const run = await runDraft('reject me');
    const before = await sb.control.state();
    const results = await inbox().reject([run.postId, hand]);
    expect(results.find((r) => r.post_id === run.postId)).toMatchObject({ ok: true });
    const refused = results.find((r) => r.post_id === hand);
    expect(refused?.ok).toBe(false);
    expect(refused?.error).toBeInstanceOf(NotInInboxError);
    const after = await sb.control.state();
    expect(after.deliveries.draft).toBe((before.deliveries.draft ?? 0) - 1);
    const drafts = (await client.listPosts({ status: 'draft' })).posts;
    expect(drafts.map((d) => d.post_id)).toEqual([hand]);
  });

  it('approves and rejects many at once, each draft on its own', async () => {
    const runs = [];
    for (let i = 0; i < 6; i += 1) runs.push(await runDraft(`many ${i}`));
    const box = inbox();
    const approved = await box.approve(runs.slice(0, 3).map((r) => r.postId));
    expect(approved.every((r) => r.ok)).toBe(true);
    // Acting twice on the same draft: the second finds it gone from the inbox.
    const twice = await box.approve([runs[0]!.postId]);
    expect(twice[0]?.error).toBeInstanceOf(NotInInboxError);
    const rejected = await box.reject(runs.slice(3).map((r) => r.postId));
    expect(rejected.every((r) => r.ok)).toBe(true);
    const state = await sb.control.state();
    expect(state.deliveries.draft ?? 0).toBe(0);
    expect(state.deliveries.scheduled).toBe(3);
  });

  it('edits a caption, then approves the edited draft', async () => {
    const run = await runDraft('before the edit');
    const box = inbox();
    expect((await box.edit(run.postId, 'after the edit')).ok).toBe(true);
    const listed = await box.list();
    expect(listed.groups[0]?.drafts[0]?.caption).toBe('after the edit');
    expect((await box.approve([run.postId]))[0]?.ok).toBe(true);
    const held = (await client.listPosts({ status: 'scheduled' })).posts.find(
      (d) => d.post_id === run.postId,
    );
    expect(held?.caption).toBe('after the edit');
  });

  it("previews an image from the service's own storage, never from an address the agent wrote elsewhere", async () => {
    const own = await uploadPng();
    const run = await runDraft('with media', [own, 'https://cdn.example.com/elsewhere.png']);
    const box = inbox();
    const listed = await box.list();
    expect(listed.groups[0]?.drafts[0]?.media).toEqual([
      { index: 0, kind: 'image', name: expect.stringMatching(/\.png$/) },
      { index: 1, kind: 'image', name: 'elsewhere.png' },
    ]);
    const url = box.mediaUrl(run.postId, 0);
    expect(url).toBe(own);
    const data = await fetchPreview(url!, sb.url);
    expect(data).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    const asked: string[] = [];
    const spy: typeof fetch = async (input) => {
      asked.push(String(input));
      return new Response('no');
    };
    expect(await fetchPreview(box.mediaUrl(run.postId, 1)!, sb.url, spy)).toBeNull();
    expect(asked).toEqual([]);
    expect(box.mediaUrl(run.postId, 5)).toBeNull();
  });
});
