import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox } from '../helpers/sandbox';

/** The MCP server at /api/mcp with the official SDK client: streamable HTTP, the API key as bearer. */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
});
afterAll(async () => {
  await sb.close();
});

async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: 'postdesk-contract-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${sb.url}/api/mcp`), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  return client;
}

/** A tool result's JSON body (tools answer the REST response body as text). */
function json(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as { type: string; text: string }[];
  expect(content[0]?.type).toBe('text');
  return JSON.parse(content[0]!.text) as Record<string, unknown>;
}

describe('MCP server', () => {
  it('lists one tool per capability, each with its contract input schema', async () => {
    const client = await connect(TEST_KEYS.a);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'bulk_create_posts',
        'bulk_inspect',
        'bulk_update_posts',
        'complete_media_upload',
        'create_article',
        'create_post',
        'delete_article',
        'delete_post',
        'get_analytics',
        'get_skill',
        'list_accounts',
        'list_articles',
        'list_automations',
        'list_posts',
        'list_skills',
        'reserve_media_upload',
        'update_post',
        'create_automation',
        'update_automation',
        'pause_automation',
        'resume_automation',
        'remove_automation',
      ].sort(),
    );
    const createPost = tools.find((t) => t.name === 'create_post')!;
    expect(createPost.inputSchema.required).toEqual(expect.arrayContaining(['caption', 'targets']));
    const getSkill = tools.find((t) => t.name === 'get_skill')!;
    expect(Object.keys(getSkill.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'version']),
    );
    await client.close();
  });

  it('tools act as the bearer’s owner, through the same rules as REST', async () => {
    const client = await connect(TEST_KEYS.a);
    const accounts = json(await client.callTool({ name: 'list_accounts', arguments: {} }));
    expect((accounts.accounts as { id: string }[]).map((a) => a.id)).toContain(IDS.accounts.x);

    const created = await client.callTool({
      name: 'create_post',
      arguments: {
        caption: 'from MCP',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect(created.isError).toBe(false);
    const postId = (json(created).post as { id: string }).id;
    const rest = await sb.api('GET', '/api/cli/posts?status=draft');
    expect(rest.body.posts.map((p: { post_id: string }) => p.post_id)).toContain(postId);

    const youtube = await client.callTool({
      name: 'create_post',
      arguments: {
        caption: 'nope',
        targets: [{ social_account_id: IDS.accounts.youtube, platform: 'youtube' }],
      },
    });
    expect(youtube.isError).toBe(true);
    expect(String(json(youtube).error)).toContain('youtube');

    const skill = json(
      await client.callTool({ name: 'get_skill', arguments: { id: 'test-skill', version: '1.0.0' } }),
    );
    expect(skill).toMatchObject({
      skill: { id: 'test-skill', version: '1.0.0' },
      versions: ['1.0.0', '2.0.0'],
    });
    const automations = json(await client.callTool({ name: 'list_automations', arguments: {} }));
    expect((automations.automations as { id: string }[]).map((a) => a.id)).toEqual([IDS.automation]);
    const tooLong = await client.callTool({
      name: 'create_post',
      arguments: {
        caption: 'c'.repeat(2201),
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect(tooLong.isError).toBe(true);
    await client.close();

    const other = await connect(TEST_KEYS.b);
    const theirs = json(await other.callTool({ name: 'list_automations', arguments: {} }));
    expect(theirs.automations).toEqual([]);
    const posts = json(await other.callTool({ name: 'list_posts', arguments: { limit: 10 } }));
    expect(posts.posts).toEqual([]);
    await other.close();
  });

  it('bulk_update_posts applies the valid entries and fails an invalid one alone, as REST does', async () => {
    const client = await connect(TEST_KEYS.a);
    const created = json(
      await client.callTool({
        name: 'create_post',
        arguments: {
          caption: 'to edit over MCP',
          action: 'draft',
          targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
        },
      }),
    );
    const postId = (created.post as { id: string }).id;
    const result = await client.callTool({
      name: 'bulk_update_posts',
      arguments: {
        updates: [
          { post_id: postId, caption: 'c'.repeat(2201) },
          { post_id: postId, caption: 'edited over MCP' },
        ],
      },
    });
    expect(result.isError).toBe(false);
    expect(json(result)).toMatchObject({
      updated_count: 1,
      failed_count: 1,
      results: [
        { index: 0, ok: false, error: 'caption: must be at most 2200 characters' },
        { index: 1, ok: true },
      ],
    });
    const rest = await sb.api('GET', '/api/cli/posts?status=draft&limit=100');
    const mine = rest.body.posts.find((p: { post_id: string }) => p.post_id === postId);
    expect(mine.caption).toBe('edited over MCP');
    await client.close();
  });

  it('answers 401 without a valid API key, and 405 to GET in stateless mode', async () => {
    // The SDK's StreamableHTTPError carries the HTTP status as `code`.
    await expect(connect(null)).rejects.toMatchObject({ code: 401 });
    await expect(connect(TEST_KEYS.aRevoked)).rejects.toMatchObject({ code: 401 });
    const raw = await fetch(`${sb.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await raw.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    const get = await sb.api('GET', '/api/mcp');
    expect(get.status).toBe(405);
  });
});
