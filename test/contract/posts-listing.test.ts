/**
 * `GET /api/cli/posts` reuses the JSON text it made of a delivery while the row is unchanged
 * (src-sandbox/posts/delivery-page.ts). These hold it to the store: every change shows in the next page,
 * even one made at the same instant of a frozen clock (so `updated_at` does not move), after a reset, and
 * whichever statement made it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreatePostResponse, ListPostsResponse } from '../../src-shared/api';
import { FIXTURE_NOW, IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset(demoFixture({ publishFailures: { linkedin: 1 } })));

const at = (minutes: number) => new Date(Date.parse(FIXTURE_NOW) + minutes * 60_000).toISOString();
const target = (p: keyof typeof IDS.accounts) => ({ social_account_id: IDS.accounts[p], platform: p });

async function list(query = ''): Promise<ListPostsResponse['posts']> {
  const res = await sb.api('GET', `/api/cli/posts${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  // The text is exactly what JSON.stringify makes of the answer: no spacing, no field left out.
  expect(res.text).toBe(JSON.stringify(res.body));
  return ListPostsResponse.parse(res.body).posts;
}

async function create(body: Record<string, unknown>): Promise<CreatePostResponse> {
  const res = await sb.api('POST', '/api/cli/posts', { body });
  expect(res.status).toBe(201);
  return CreatePostResponse.parse(res.body);
}

describe('GET /api/cli/posts reuses nothing stale', () => {
  it('shows an edit made at the same instant of a frozen clock', async () => {
    const made = await create({ caption: 'first words', action: 'draft', targets: [target('x')] });
    const id = made.social_posts[0]!.id;
    expect((await list()).find((d) => d.id === id)).toMatchObject({ caption: 'first words' });
    // The clock is frozen at FIXTURE_NOW: updated_at stays the same, only the row's content moves.
    const patch = await sb.api('PATCH', '/api/cli/posts', { body: { id, caption: 'second words' } });
    expect(patch.status).toBe(200);
    const after = (await list()).find((d) => d.id === id);
    expect(after).toMatchObject({ caption: 'second words', updated_at: FIXTURE_NOW });
  });

  it('shows a draft scheduled, then published by the clock, then retried, at every step', async () => {
    const made = await create({ caption: 'steps', action: 'draft', targets: [target('linkedin')] });
    const id = made.social_posts[0]!.id;
    expect((await list()).find((d) => d.id === id)).toMatchObject({ status: 'draft', scheduled_at: null });
    await sb.api('PATCH', '/api/cli/posts', { body: { id, status: 'scheduled', scheduled_at: at(5) } });
    expect((await list()).find((d) => d.id === id)).toMatchObject({
      status: 'scheduled',
      scheduled_at: at(5),
    });
    // linkedin fails its first attempt in this fixture: the publisher's own UPDATE shows too.
    await sb.control.advance(5 * 60_000);
    expect((await list()).find((d) => d.id === id)).toMatchObject({ status: 'retry_scheduled', attempts: 1 });
    expect((await list('?status=retry_scheduled')).map((d) => d.id)).toEqual([id]);
    expect((await list('?status=scheduled')).map((d) => d.id)).not.toContain(id);
  });

  it('shows a deleted delivery no more, and after a reset only what the new store holds', async () => {
    const made = await create({ caption: 'gone soon', action: 'draft', targets: [target('x')] });
    const id = made.social_posts[0]!.id;
    expect((await list()).map((d) => d.id)).toContain(id);
    expect((await sb.api('DELETE', '/api/cli/posts', { body: { id } })).status).toBe(200);
    expect((await list()).map((d) => d.id)).not.toContain(id);

    const kept = await create({ caption: 'before reset', action: 'draft', targets: [target('x')] });
    expect((await list()).map((d) => d.caption)).toContain('before reset');
    await sb.control.reset(demoFixture());
    const listed = await list();
    expect(listed.map((d) => d.id)).not.toContain(kept.social_posts[0]!.id);
    expect(listed.map((d) => d.caption)).not.toContain('before reset');
  });

  it('answers the same page twice byte for byte, and a page of 1 as the head of a page of 50', async () => {
    for (let i = 0; i < 3; i++) await create({ caption: `n${i}`, action: 'draft', targets: [target('x')] });
    const once = await sb.api('GET', '/api/cli/posts?limit=50');
    const twice = await sb.api('GET', '/api/cli/posts?limit=50');
    expect(twice.text).toBe(once.text);
    const head = await list('?limit=1');
    expect(head).toEqual(ListPostsResponse.parse(once.body).posts.slice(0, 1));
    expect(head[0]).toMatchObject({ caption: 'n2' });
  });
});
