import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AutomationToolResult } from '../../src-shared/api/automation-editing';
import { startHarness, type Harness } from '../integration/executor-harness';
import { IDS, TEST_KEYS, startTestSandbox, type Loose, type TestSandbox } from '../helpers/sandbox';

/**
 * Automations created and edited over MCP (the service: "in the dashboard or over MCP") with the SDK's own
 * client, run by Postdesk's own executor against the same sandbox; faults on /api/mcp like on any path.
 */

const HOUR = 3_600_000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'postdesk-contract-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  closers.push(() => client.close());
  return client;
}

type ToolAnswer = { isError: boolean; body: Loose };
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return { isError: result.isError === true, body: JSON.parse(text) as Loose };
}

const instagram = [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }];

describe('automations over MCP', () => {
  it('one created over MCP is run by the executor; edits, pause, resume and removal reach it on its next sync', async () => {
    const h: Harness = await startHarness({ automations: [] });
    closers.push(() => h.close());
    const mcp = await connect(h.sb.url, TEST_KEYS.a);

    const created = await call(mcp, 'create_automation', {
      name: 'Made over MCP',
      schedule: { cron: '0 * * * *', timezone: 'UTC' },
      instructions: 'Post a test image.',
      targets: instagram,
    });
    expect(created.isError).toBe(false);
    const automation = AutomationToolResult.parse(created.body).automation;
    expect(automation).toMatchObject({
      name: 'Made over MCP',
      status: 'active',
      execution_mode: 'draft',
      queue: 'local',
      revision: 1,
      acked_revision: null,
    });
    const id = automation.id;

    // The executor syncs, acknowledges revision 1, and runs the next occurrence.
    await h.executor.runOnce();
    await h.advance(HOUR);
    await h.executor.runOnce();
    const [run] = await h.runs();
    expect(run).toMatchObject({ state: 'completed', automation_id: id });
    expect((await h.sb.control.state()).deliveries).toEqual({ draft: 1 });
    const posted = (await h.sb.api('GET', '/api/cli/posts')).body.posts;
    expect(posted).toMatchObject([{ platform: 'instagram', status: 'draft', run_id: run!.id }]);

    // An edit is a new revision: the executor sees revision > acked_revision and acknowledges it.
    const edited = await call(mcp, 'update_automation', { id, instructions: 'Post a test image, edited.' });
    expect(edited.body.automation).toMatchObject({ revision: 2, acked_revision: 1, name: 'Made over MCP' });
    await h.executor.runOnce();
    const listed = await call(mcp, 'list_automations', {});
    expect(listed.body.automations).toMatchObject([
      { id, revision: 2, acked_revision: 2, instructions: 'Post a test image, edited.' },
    ]);

    // Paused: the next occurrence passes without a run. Pausing again changes nothing.
    const paused = await call(mcp, 'pause_automation', { id });
    expect(paused.body.automation).toMatchObject({ status: 'paused', revision: 3 });
    expect((await call(mcp, 'pause_automation', { id })).body.automation.revision).toBe(3);
    await h.executor.runOnce();
    await h.advance(HOUR);
    await h.executor.runOnce();
    expect(await h.runs()).toHaveLength(1);

    // Resumed: runs again.
    expect((await call(mcp, 'resume_automation', { id })).body.automation).toMatchObject({
      status: 'active',
      revision: 4,
    });
    await h.executor.runOnce();
    await h.advance(HOUR);
    await h.executor.runOnce();
    const runs = await h.runs();
    expect(runs.map((r) => r.state)).toEqual(['completed', 'completed']);

    // Removed: sync still lists it, so the executor learns of it, and it can no longer be edited.
    expect((await call(mcp, 'remove_automation', { id })).body.automation).toMatchObject({
      status: 'removed',
      revision: 5,
    });
    const executorId = h.executor.status().executorId as string;
    const synced = await h.sb.api('GET', `/api/agent/automations/sync?executor_id=${executorId}`);
    expect(synced.body.automations).toMatchObject([{ id, status: 'removed', revision: 5 }]);
    for (const [name, args] of [
      ['update_automation', { id, name: 'again' }],
      ['resume_automation', { id }],
      ['pause_automation', { id }],
    ] as const) {
      const refused = await call(mcp, name, args);
      expect([name, refused.isError, refused.body.code]).toEqual([name, true, 'AUTOMATION_REMOVED']);
    }
    await h.executor.runOnce();
    await h.advance(HOUR);
    await h.executor.runOnce();
    expect(await h.runs()).toHaveLength(2);
  });

  it('validates as PUT /_sandbox/automations does, and acts as the bearer’s owner only', async () => {
    const sb: TestSandbox = await startTestSandbox();
    closers.push(() => sb.close());
    const mcp = await connect(sb.url, TEST_KEYS.a);
    const invalid: [Record<string, unknown>, RegExp][] = [
      [
        { schedule: { cron: '0 * * *', timezone: 'UTC' } },
        /^schedule: schedule\.cron "0 \* \* \*" must have 5 fields$/,
      ],
      [{ schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, /is not an IANA time zone/],
      [
        { targets: [{ social_account_id: IDS.accountB, platform: 'x' }] },
        new RegExp(`^targets\\.0\\.social_account_id: account ${IDS.accountB} not found$`),
      ],
      [
        { targets: [{ social_account_id: IDS.accounts.x, platform: 'tiktok' }] },
        /^targets\.0\.platform: account .* is a x account, not tiktok$/,
      ],
      [
        { queue: 'legacy', targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }] },
        /instagram only/,
      ],
    ];
    for (const [change, message] of invalid) {
      const body = { name: 'Invalid', schedule: { cron: '0 9 * * *', timezone: 'UTC' }, ...change };
      const viaMcp = await call(mcp, 'create_automation', body);
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.body.code).toBe('VALIDATION_FAILED');
      expect(viaMcp.body.error).toMatch(message);
      // The control route says the same about the same automation.
      const viaControl = await sb.control.putAutomation('77777777-7777-4777-8777-000000000001', {
        owner_id: IDS.ownerA,
        ...body,
      });
      expect([viaControl.status, viaControl.body.error]).toEqual([400, viaMcp.body.error]);
    }
    // Types and limits are the tool's input schema: the SDK refuses them before the tool runs.
    const schemaError = await mcp.callTool({
      name: 'create_automation',
      arguments: { name: '', schedule: { cron: '0 9 * * *' } },
    });
    expect(schemaError.isError).toBe(true);
    expect((schemaError.content as { text: string }[])[0]!.text).toMatch(/name|timezone/);
    expect((await sb.api('GET', '/api/automations')).body.automations).toHaveLength(1);

    const mine = (
      await call(mcp, 'create_automation', {
        name: 'Mine',
        execution_mode: 'auto',
        schedule: { cron: '15 8 * * 1-5', timezone: 'Europe/Berlin' },
        targets: [{ social_account_id: IDS.accounts.tiktok, platform: 'tiktok' }],
      })
    ).body.automation;
    expect(mine).toMatchObject({ execution_mode: 'auto', schedule: { timezone: 'Europe/Berlin' } });
    const badEdit = await call(mcp, 'update_automation', {
      id: mine.id,
      schedule: { cron: 'nope', timezone: 'UTC' },
    });
    expect(badEdit.body.code).toBe('VALIDATION_FAILED');
    const unchanged = (await sb.api('GET', '/api/automations')).body.automations.find(
      (a: { id: string }) => a.id === mine.id,
    );
    expect(unchanged).toMatchObject({ revision: 1, schedule: { cron: '15 8 * * 1-5' } });

    const other = await connect(sb.url, TEST_KEYS.b);
    for (const name of ['update_automation', 'pause_automation', 'remove_automation'] as const) {
      const foreign = await call(other, name, {
        id: mine.id,
        ...(name === 'update_automation' ? { name: 'x' } : {}),
      });
      expect([name, foreign.isError, foreign.body.code]).toEqual([name, true, 'NOT_FOUND']);
    }
    expect((await call(other, 'list_automations', {})).body.automations).toEqual([]);
    const theirs = await call(other, 'create_automation', {
      name: 'Theirs',
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
      targets: [{ social_account_id: IDS.accountB, platform: 'x' }],
    });
    expect(theirs.isError).toBe(false);
    expect(
      (await sb.api('GET', '/api/automations')).body.automations.map((a: { name: string }) => a.name),
    ).not.toContain('Theirs');
  });
});

describe('faults on /api/mcp', () => {
  it('error_rate answers 503 before any tool runs, reset_rate drops the answer after the tool committed, latency_ms delays it', async () => {
    const sb = await startTestSandbox();
    closers.push(() => sb.close());
    const mcp = await connect(sb.url, TEST_KEYS.a);
    const create = (name: string) =>
      mcp.callTool({
        name: 'create_automation',
        arguments: { name, schedule: { cron: '0 9 * * *', timezone: 'UTC' }, targets: instagram },
      });
    const names = async () =>
      ((await sb.api('GET', '/api/automations')).body.automations as { name: string }[]).map((a) => a.name);

    await sb.control.faults({ error_rate: 1, paths: ['/api/mcp'] });
    await expect(create('refused')).rejects.toMatchObject({ code: 503 });
    expect(await names()).not.toContain('refused');
    // Other paths are not subject to /api/mcp's settings.
    expect((await sb.api('GET', '/api/automations')).status).toBe(200);

    await sb.control.faults({ reset_rate: 1, paths: ['/api/mcp'] });
    await expect(create('committed, answer lost')).rejects.toThrow();
    await sb.control.faults({});
    expect(await names()).toContain('committed, answer lost');

    await sb.control.faults({ latency_ms: 400, paths: ['/api/mcp'] });
    const started = performance.now();
    const slow = await create('slow');
    expect(slow.isError).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);

    // A tool's own call to a REST route is part of the /api/mcp request: faults on that route's path do
    // not reach into it, the request as a whole is subject once.
    await sb.control.faults({ error_rate: 1, paths: ['/api/cli/posts'] });
    const viaMcp = await mcp.callTool({
      name: 'create_post',
      arguments: {
        caption: 'through MCP',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect(viaMcp.isError).toBe(false);
    const direct = await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'direct',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect([direct.status, direct.body.code]).toEqual([503, 'SANDBOX_FAULT']);
  });
});
