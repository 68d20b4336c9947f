import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../../../src-shared/ipc/bridge-error';
import { createApiClient } from '../../../../src-main/core/api/client';
import { createAutomationEditing } from '../../../../src-main/core/bridge/automation-editing';
import { IDS, TEST_KEYS, startTestSandbox, type Loose, type TestSandbox } from '../../../helpers/sandbox';
import { makeBridge, type TestBridge } from '../../ipc/helpers';

/**
 * The Automations screen's create and edit, through the real bridge (what both hosts run) to the sandbox's
 * MCP tools: the sandbox holds what the screen asked for, and a refusal comes back in words for a person.
 */

let sb: TestSandbox;
let tb: TestBridge;
beforeAll(async () => {
  sb = await startTestSandbox();
  tb = await makeBridge(async () => ({
    baseUrl: sb.url,
    client: createApiClient({ baseUrl: sb.url, apiKey: TEST_KEYS.a }),
  }));
  const online = await tb.bridge.dispatcher.invoke('connection:useOffline', undefined);
  expect(online.ok).toBe(true);
});
afterAll(async () => {
  await tb?.close();
  await sb?.close();
});

const invoke = async (channel: string, input: unknown): Promise<BridgeResult<Loose>> =>
  (await tb.bridge.dispatcher.invoke(channel as never, input as never)) as BridgeResult<Loose>;

const value = (r: BridgeResult<Loose>): Loose => {
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value;
};

describe('automations:create, update, pause, resume and remove on the sandbox', () => {
  it('changes what the sandbox holds, each change a new revision, as the list then shows', async () => {
    expect(value(await invoke('automations:list', undefined)).can_edit).toBe(true);
    const created = value(
      await invoke('automations:create', {
        name: 'From the screen',
        schedule: { cron: '30 7 * * 1-5', timezone: 'Europe/Berlin' },
        execution_mode: 'draft',
        instructions: 'Write a morning tip.',
        targets: [
          { social_account_id: IDS.accounts.linkedin, platform: 'linkedin' },
          { social_account_id: IDS.accounts.youtube, platform: 'youtube' },
        ],
      }),
    ).automation;
    expect(created).toMatchObject({ name: 'From the screen', status: 'active', revision: 1 });
    expect(created.next_occurrence).toEqual(expect.any(String));
    const id = created.id as string;
    const held = (await sb.api('GET', '/api/automations')).body.automations.find(
      (a: { id: string }) => a.id === id,
    );
    expect(held).toMatchObject({
      schedule: { cron: '30 7 * * 1-5', timezone: 'Europe/Berlin' },
      revision: 1,
    });

    const edited = value(await invoke('automations:update', { id, name: 'Renamed', execution_mode: 'auto' }));
    expect(edited.automation).toMatchObject({ name: 'Renamed', execution_mode: 'auto', revision: 2 });
    const paused = value(await invoke('automations:pause', { id })).automation;
    expect(paused).toMatchObject({ status: 'paused', revision: 3, next_occurrence: null });
    expect(value(await invoke('automations:resume', { id })).automation).toMatchObject({
      status: 'active',
      revision: 4,
    });
    expect(value(await invoke('automations:remove', { id })).automation).toMatchObject({
      status: 'removed',
      revision: 5,
    });
    const listed = value(await invoke('automations:list', undefined)).automations;
    expect(listed.find((a: { id: string }) => a.id === id)).toMatchObject({ status: 'removed', revision: 5 });

    const afterRemoval = await invoke('automations:update', { id, name: 'again' });
    expect(afterRemoval).toMatchObject({
      ok: false,
      error: {
        kind: 'api',
        code: 'AUTOMATION_REMOVED',
        message: 'This automation was removed; it can no longer be changed.',
      },
    });
  });

  it('answers a refusal in words for the form, field by field, and changes nothing', async () => {
    const before = (await sb.api('GET', '/api/automations')).body.automations.length;
    const bad = await invoke('automations:create', {
      name: 'Bad schedule',
      schedule: { cron: '0 9 * *', timezone: 'Mars/Olympus' },
      targets: [{ social_account_id: IDS.accounts.x, platform: 'x' }],
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    if (bad.ok) return;
    expect(bad.error.issues).toEqual([
      {
        path: 'schedule',
        message:
          'A schedule has five parts: minute, hour, day of month, month and weekday (for example 0 9 * * 1-5).',
      },
    ]);
    const foreignAccount = await invoke('automations:create', {
      name: 'Foreign account',
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
      targets: [{ social_account_id: IDS.accountB, platform: 'x' }],
    });
    expect(foreignAccount).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_input',
        issues: [{ path: 'targets', message: 'One of the chosen accounts is no longer connected.' }],
      },
    });
    // For a person: no field paths, codes or ids of the sandbox's message.
    const text = JSON.stringify([bad, foreignAccount]);
    expect(text).not.toMatch(/schedule\.cron|targets\.0|social_account_id|Mars/);
    expect(text).not.toContain(IDS.accountB);
    expect((await sb.api('GET', '/api/automations')).body.automations).toHaveLength(before);

    const input = await invoke('automations:create', {
      name: '',
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
    });
    expect(input).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    const foreign = await invoke('automations:pause', { id: '00000000-0000-4000-8000-000000000000' });
    expect(foreign).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });
});

describe('where editing is offered', () => {
  it('on the sandbox only: the service edits in its dashboard, and no MCP call is made there', async () => {
    let called = 0;
    const editing = createAutomationEditing({
      version: 'test',
      api: async () => ({
        baseUrl: 'https://api.example.com',
        mcpFetch: async () => {
          called += 1;
          return new Response('{}');
        },
      }),
      status: async () => ({
        state: 'connected',
        base_url: 'https://api.example.com',
        offline: false,
        has_key: true,
        message: null,
      }),
    });
    expect(await editing.available()).toBe(false);
    await expect(editing.pause('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(called).toBe(0);
  });
});
