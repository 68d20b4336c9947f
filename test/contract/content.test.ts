import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AnalyticsResponse,
  CreateArticleResponse,
  GetSkillResponse,
  ListArticlesResponse,
  ListSkillsResponse,
} from '../../src-shared/api';
import { FIXTURE_NOW, IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const article = (extra: Record<string, unknown> = {}) => ({
  title: 'Shipping the sandbox',
  body_markdown: '# Hello\n\nText.',
  destinations: ['devto', 'hashnode', 'forum', 'linkedin', 'x'],
  ...extra,
});

describe('articles', () => {
  it('stores a draft with pending targets by default', async () => {
    const res = await sb.api('POST', '/api/cli/articles', { body: article() });
    expect(res.status).toBe(201);
    const body = CreateArticleResponse.parse(res.body);
    expect(body.article.status).toBe('draft');
    expect(body.article.targets.map((t) => t.status)).toEqual(Array(5).fill('pending'));
    expect(body.results).toBeUndefined();
  });

  it('publishes inline with per-target results, failing a destination named by [fail:...]', async () => {
    const ok = CreateArticleResponse.parse(
      (await sb.api('POST', '/api/cli/articles', { body: article({ action: 'publish' }) })).body,
    );
    expect(ok.article.status).toBe('published');
    expect(ok.results?.every((r) => r.status === 'published' && r.url?.startsWith('https://'))).toBe(true);
    const partial = CreateArticleResponse.parse(
      (
        await sb.api('POST', '/api/cli/articles', {
          body: article({ title: 'Oops [fail:forum]', action: 'publish' }),
        })
      ).body,
    );
    expect(partial.article.status).toBe('failed');
    const forum = partial.results?.find((r) => r.destination === 'forum');
    expect(forum).toMatchObject({ status: 'failed', url: null });
    expect(forum?.error).toMatch(/simulated forum failure/);
    expect(partial.results?.filter((r) => r.status === 'published')).toHaveLength(4);
  });

  it('answers the whole {article, results} documented in docs/sandbox.md, and {article} alone for a draft', async () => {
    const res = await sb.api('POST', '/api/cli/articles', {
      body: {
        title: 'Release notes [fail:forum]',
        body_markdown: '# v2',
        tags: ['release'],
        destinations: ['devto', 'forum'],
        action: 'publish',
      },
    });
    expect(res.status).toBe(201);
    const id = res.body.article.id as string;
    const targets = [
      {
        destination: 'devto',
        status: 'published',
        url: `https://dev.to/sandbox/release-notes-fail-forum-${id.slice(0, 8)}`,
        error: null,
        published_at: FIXTURE_NOW,
      },
      {
        destination: 'forum',
        status: 'failed',
        url: null,
        error: 'simulated forum failure (the title contains [fail:forum])',
        published_at: null,
      },
    ];
    expect(res.body).toEqual({
      article: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Release notes [fail:forum]',
        body_markdown: '# v2',
        tags: ['release'],
        canonical_url: null,
        status: 'failed',
        targets,
        created_at: FIXTURE_NOW,
        updated_at: FIXTURE_NOW,
      },
      results: targets,
    });
    const draft = await sb.api('POST', '/api/cli/articles', {
      body: article({ destinations: ['x', 'devto', 'x'] }),
    });
    expect(Object.keys(draft.body)).toEqual(['article']);
    expect(draft.body.article.targets).toEqual([
      { destination: 'x', status: 'pending', url: null, error: null, published_at: null },
      { destination: 'devto', status: 'pending', url: null, error: null, published_at: null },
    ]);
    const listed = (await sb.api('GET', '/api/cli/articles')).body.articles;
    expect(listed.find((a: { id: string }) => a.id === id)).toEqual(res.body.article);
  });

  it('lists with status and limit, newest first, and deletes (404 when missing)', async () => {
    await sb.api('POST', '/api/cli/articles', { body: article({ title: 'a' }) });
    await sb.api('POST', '/api/cli/articles', { body: article({ title: 'b', action: 'publish' }) });
    await sb.api('POST', '/api/cli/articles', { body: article({ title: 'c' }) });
    const all = ListArticlesResponse.parse((await sb.api('GET', '/api/cli/articles')).body).articles;
    expect(all.map((a) => a.title)).toEqual(['c', 'b', 'a']);
    expect(
      (await sb.api('GET', '/api/cli/articles?status=draft&limit=1')).body.articles.map(
        (a: { title: string }) => a.title,
      ),
    ).toEqual(['c']);
    expect((await sb.api('GET', '/api/cli/articles?status=gone')).status).toBe(400);
    const del = await sb.api('DELETE', '/api/cli/articles', { body: { id: all[0]!.id } });
    expect(del).toMatchObject({ status: 200, body: { success: true } });
    expect((await sb.api('DELETE', '/api/cli/articles', { body: { id: all[0]!.id } })).status).toBe(404);
    expect(await sb.control.state()).toMatchObject({ articles: { draft: 1, published: 1 } });
  });

  it('rejects invalid articles with field and limit', async () => {
    const res = await sb.api('POST', '/api/cli/articles', { body: article({ title: 't'.repeat(301) }) });
    expect(res).toMatchObject({ status: 400, body: { error: 'title: must be at most 300 characters' } });
    const dest = await sb.api('POST', '/api/cli/articles', { body: article({ destinations: ['medium'] }) });
    expect(dest.body.error).toMatch(/^destinations\.0: must be one of "devto"/);
  });
});

describe('analytics', () => {
  const publish = async (platform: 'x' | 'instagram') =>
    (
      await sb.api('POST', '/api/cli/posts', {
        body: {
          caption: `on ${platform}`,
          targets: [{ social_account_id: IDS.accounts[platform], platform }],
        },
      })
    ).body;

  it('computes deterministic metrics from the owner’s deliveries that grow with age', async () => {
    const x = await publish('x');
    await publish('instagram');
    await sb.control.advance(48 * 3_600_000);
    const first = AnalyticsResponse.parse((await sb.api('GET', '/api/cli/analytics')).body);
    const second = AnalyticsResponse.parse((await sb.api('GET', '/api/cli/analytics')).body);
    expect(second).toEqual(first);
    expect(first.totals.impressions).toBeGreaterThan(0);
    expect(first.by_platform?.map((p) => p.platform).sort()).toEqual(['instagram', 'x']);
    await sb.control.advance(48 * 3_600_000);
    const later = AnalyticsResponse.parse((await sb.api('GET', '/api/cli/analytics')).body);
    expect(later.totals.impressions).toBeGreaterThan(first.totals.impressions);
    const onlyX = AnalyticsResponse.parse((await sb.api('GET', '/api/cli/analytics?platform=x')).body);
    expect(onlyX.by_platform?.map((p) => p.platform)).toEqual(['x']);
    const byAccount = AnalyticsResponse.parse(
      (await sb.api('GET', `/api/cli/analytics?account_id=${IDS.accounts.instagram}`)).body,
    );
    expect(byAccount.by_account?.map((a) => a.account_id)).toEqual([IDS.accounts.instagram]);
    const single = AnalyticsResponse.parse(
      (await sb.api('GET', `/api/cli/analytics?post_id=${x.post.id}`)).body,
    );
    expect(single.post?.id).toBe(x.post.id);
    expect(single.deliveries?.map((d) => d.id)).toEqual([x.social_posts[0].id]);
    expect(single.totals.impressions).toBe(onlyX.totals.impressions);
    expect((await sb.api('GET', '/api/cli/analytics?limit=1')).body.top_posts).toHaveLength(1);
    expect((await sb.api('GET', '/api/cli/analytics', { key: TEST_KEYS.b })).body.totals.impressions).toBe(0);
  });

  it('filters by the published_at range', async () => {
    await publish('x');
    await sb.control.advance(2 * 86_400_000);
    await publish('x');
    const day2 = new Date(Date.parse(FIXTURE_NOW) + 86_400_000).toISOString();
    const recent = (await sb.api('GET', `/api/cli/analytics?start_date=${day2}`)).body;
    expect(recent.totals.posts).toBe(1);
    const early = (await sb.api('GET', `/api/cli/analytics?end_date=${day2}`)).body;
    expect(early.totals.posts).toBe(1);
  });

  it('answers 400 for an invalid platform or date and 404 for an unknown post', async () => {
    const platform = await sb.api('GET', '/api/cli/analytics?platform=myspace');
    expect(platform.status).toBe(400);
    expect(platform.body.error).toMatch(/^platform: must be one of/);
    const date = await sb.api('GET', '/api/cli/analytics?start_date=yesterday');
    expect(date).toMatchObject({
      status: 400,
      body: { error: 'start_date: must be an ISO 8601 date-time with a time zone offset' },
    });
    const order = await sb.api(
      'GET',
      `/api/cli/analytics?start_date=2030-02-01T00:00:00Z&end_date=2030-01-01T00:00:00Z`,
    );
    expect(order.status).toBe(400);
    expect((await sb.api('GET', '/api/cli/analytics?post_id=nope')).status).toBe(404);
  });
});

describe('skills and llms.txt', () => {
  it('lists skills, returns versions, markdown, and 404s', async () => {
    const list = ListSkillsResponse.parse((await sb.api('GET', '/api/skills', { key: null })).body);
    expect(list.skills).toEqual([expect.objectContaining({ id: 'test-skill', latest_version: '2.0.0' })]);
    const latest = GetSkillResponse.parse(
      (await sb.api('GET', '/api/skills/test-skill', { key: null })).body,
    );
    expect(latest).toMatchObject({
      skill: { version: '2.0.0', markdown: '# Test skill v2\n' },
      versions: ['1.0.0', '2.0.0'],
    });
    const v1 = GetSkillResponse.parse(
      (await sb.api('GET', '/api/skills/test-skill?version=1.0.0', { key: null })).body,
    );
    expect(v1.skill.markdown).toBe('# Test skill v1\n');
    const md = await sb.api('GET', '/api/skills/test-skill?format=markdown', { key: null });
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(md.text).toBe('# Test skill v2\n');
    expect((await sb.api('GET', '/api/skills/nope', { key: null })).status).toBe(404);
    expect((await sb.api('GET', '/api/skills/test-skill?version=9.9.9', { key: null })).status).toBe(404);
    expect((await sb.api('GET', '/api/skills/test-skill?format=html', { key: null })).status).toBe(400);
  });

  it('serves a plain-text overview at /llms.txt', async () => {
    const res = await sb.api('GET', '/llms.txt', { key: null });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toContain(`Base URL: ${sb.url}`);
    expect(res.text).toContain('POST /api/cli/media/uploads');
  });
});
