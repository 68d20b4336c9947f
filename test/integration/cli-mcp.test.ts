import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * `postdesk mcp` with the official SDK client over stdio (StdioClientTransport), against the real sandbox:
 * the service's tools behind the policy gate, proposals approved with `postdesk inbox`, and what the
 * sandbox holds after each step.
 */

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
let sb: TestSandbox;
let dataDir: string;
let client: Client;

const env = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  POSTDESK_DATA_DIR: dataDir,
  POSTDESK_API_KEY: TEST_KEYS.a,
});

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dataDir = mkdtempSync(join(tmpdir(), 'postdesk-cli-mcp-'));
  client = new Client({ name: 'cli-mcp-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--base-url', sb.url, 'mcp'],
      env: env(),
      stderr: 'pipe',
    }),
  );
}, scaled(60_000));
afterAll(async () => {
  await client?.close();
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = async (...args: string[]) => {
  const run = await runCliHere(['--base-url', sb.url, ...args], env());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...run, json: (): any => JSON.parse(run.out) };
};

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

/** Posts on the service with this caption (every status). */
async function postsWith(caption: string): Promise<number> {
  const res = await sb.api('GET', '/api/cli/posts?limit=100');
  return (res.body.posts as { caption: string }[]).filter((p) => p.caption === caption).length;
}

const createArgs = (caption: string) => ({
  caption,
  targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
});

const proposalIdIn = (text: string): string => {
  const id = /\bprop_[0-9a-f]{12}\b/.exec(text)?.[0];
  expect(id, text).toBeDefined();
  return id!;
};

describe('postdesk mcp', () => {
  it("offers the service's tools; writing ones take dry_run; reading ones run at once", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['list_accounts', 'create_post', 'delete_post', 'create_automation']),
    );
    const create = tools.find((t) => t.name === 'create_post')!;
    expect(Object.keys(create.inputSchema.properties ?? {})).toContain('dry_run');
    expect(create.description).toContain('waits for approval in Postdesk');
    const list = tools.find((t) => t.name === 'list_accounts')!;
    expect(Object.keys(list.inputSchema.properties ?? {})).not.toContain('dry_run');

    const accounts = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(accounts.isError).toBeFalsy();
    expect(textOf(accounts)).toContain(IDS.accounts.x);
  });

  it('a create becomes a proposal; approving it in `postdesk inbox` publishes it exactly once', async () => {
    const before = (await sb.control.state()).posts;
    const caption = 'Proposed by an assistant';
    const first = await client.callTool({ name: 'create_post', arguments: createArgs(caption) });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toContain('Waiting for approval in Postdesk');
    const id = proposalIdIn(textOf(first));
    expect((await sb.control.state()).posts).toBe(before);

    // The same call again, still waiting: the same proposal, nothing sent.
    const again = await client.callTool({ name: 'create_post', arguments: createArgs(caption) });
    expect(proposalIdIn(textOf(again))).toBe(id);

    const waiting = await cli('--json', 'inbox', 'proposals');
    expect(waiting.json().proposals.map((p: { id: string }) => p.id)).toEqual([id]);

    const approved = await cli('--json', 'inbox', 'approve', id);
    expect(approved.code).toBe(0);
    expect(approved.json().results).toEqual([{ post_id: id, ok: true, error: null }]);
    expect((await sb.control.state()).posts).toBe(before + 1);
    expect(await postsWith(caption)).toBe(1);

    // The assistant asks again: it learns the outcome, and nothing is sent twice.
    const after = await client.callTool({ name: 'create_post', arguments: createArgs(caption) });
    expect(textOf(after)).toContain('sent once');
    const twice = await cli('--json', 'inbox', 'approve', id);
    expect(twice.code).not.toBe(0);
    expect((await sb.control.state()).posts).toBe(before + 1);
    expect(await postsWith(caption)).toBe(1);
  });

  it('an approval holds for the exact content: an edited call needs a new approval', async () => {
    const first = await client.callTool({ name: 'create_post', arguments: createArgs('Version one') });
    const id = proposalIdIn(textOf(first));
    expect((await cli('--json', 'inbox', 'approve', id)).code).toBe(0);
    expect(await postsWith('Version one')).toBe(1);

    const edited = await client.callTool({ name: 'create_post', arguments: createArgs('Version one!') });
    expect(textOf(edited)).toContain('Waiting for approval in Postdesk');
    const newId = proposalIdIn(textOf(edited));
    expect(newId).not.toBe(id);
    expect(await postsWith('Version one!')).toBe(0);

    // Rejected: nothing sent, and the assistant is told so.
    expect((await cli('--json', 'inbox', 'reject', newId)).code).toBe(0);
    const told = await client.callTool({ name: 'create_post', arguments: createArgs('Version one!') });
    expect(told.isError).toBe(true);
    expect(textOf(told)).toContain('rejected');
    expect(await postsWith('Version one!')).toBe(0);
  });

  it('a denied tool refuses, from the next call on after `postdesk config`', async () => {
    const draft = await sb.api('POST', '/api/cli/posts', {
      body: {
        caption: 'keep me',
        action: 'draft',
        targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
      },
    });
    expect(draft.status).toBeLessThan(300);
    const deliveryId = (await sb.api('GET', '/api/cli/posts?status=draft')).body.posts.find(
      (p: { caption: string }) => p.caption === 'keep me',
    ).id as string;
    const set = await cli(
      'config',
      'set',
      'assistantToolPolicies',
      '{"delete_post":"deny","list_posts":"deny"}',
    );
    expect(set.code).toBe(0);
    const refused = await client.callTool({ name: 'delete_post', arguments: { id: deliveryId } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('turned off in Postdesk');
    expect(await postsWith('keep me')).toBe(1);
    const reading = await client.callTool({ name: 'list_posts', arguments: {} });
    expect(reading.isError).toBe(true);
    await cli('config', 'unset', 'assistantToolPolicies');
  });

  it('dry_run answers what would be sent and sends nothing, not even a proposal', async () => {
    const before = await sb.control.state();
    const proposalsBefore = (await cli('--json', 'inbox', 'proposals', '--all')).json().proposals.length;
    const dry = await client.callTool({
      name: 'create_post',
      arguments: { ...createArgs('Only a dry run'), dry_run: true },
    });
    expect(dry.isError).toBeFalsy();
    expect(textOf(dry)).toContain('Dry run: nothing was sent');
    expect(textOf(dry)).toContain('"caption": "Only a dry run"');
    expect(textOf(dry)).not.toContain('"dry_run"');
    expect(await sb.control.state()).toEqual(before);
    expect((await cli('--json', 'inbox', 'proposals', '--all')).json().proposals.length).toBe(
      proposalsBefore,
    );
  });

  it('every call is in the activity, with its outcome', async () => {
    const { activity } = (await cli('--json', 'inbox', 'activity', '--limit', '100')).json();
    const outcomes = new Set(activity.map((a: { outcome: string }) => a.outcome));
    for (const o of ['sent', 'proposed', 'waiting', 'already_sent', 'rejected', 'denied', 'dry_run']) {
      expect(outcomes, o).toContain(o);
    }
  });
});
