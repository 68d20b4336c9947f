import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/core/api/client';
import { createBridgeEvents } from '../../../../src-main/core/bridge/events';
import {
  applyExecutorSettings,
  followExecutorSettings,
} from '../../../../src-main/core/bridge/executor-port';
import type { SettingsPatch } from '../../../../src-main/core/config/settings';
import { Settings } from '../../../../src-shared/settings';
import { Executor } from '../../../../src-main/core/executor/executor';
import type { SettingsService } from '../../../../src-main/core/config/settings';
import { openStore, type Store } from '../../../../src-main/core/store/store';

const CMD = { command: process.execPath, args: ['agent.mjs'] };
let dir: string | undefined;
let store: Store | undefined;
afterEach(async () => {
  store?.close();
  store = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function executor(agentType: string): Promise<Executor> {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-exsettings-'));
  store = openStore(join(dir, 'store.db'));
  return new Executor({
    // Never called: these tests do not start the executor.
    api: createApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k'.repeat(32) }),
    store,
    scope: 'test',
    dataDir: dir,
    name: 'test',
    agentType,
    agent: CMD,
    concurrency: 1,
    missedRunPolicy: 'latest',
    graceMs: 15 * 60_000,
  });
}

function settingsService(initial: SettingsPatch): SettingsService {
  let s = Settings.parse(initial);
  return { get: () => s, update: (patch) => (s = Settings.parse({ ...s, ...patch })) };
}

describe('executor settings', () => {
  it('applies concurrency, the missed-run policy and the grace window in place for the same agent type', async () => {
    const ex = await executor('claude');
    const s = Settings.parse({
      agentCommands: { claude: { command: process.execPath, args: ['other.mjs'] } },
      concurrency: 4,
      missedRunPolicy: 'all',
      graceWindowMinutes: 2,
    });
    expect(applyExecutorSettings(ex, s)).toBe('applied');
    expect(ex.settings()).toEqual({ concurrency: 4, missedRunPolicy: 'all', graceMs: 120_000 });
  });

  it('asks for a rebuild when the agent type changes or the configuration is not usable', async () => {
    const ex = await executor('claude');
    const other = Settings.parse({ agentCommands: { codex: CMD }, concurrency: 3 });
    expect(applyExecutorSettings(ex, other)).toBe('rebuild');
    const two = Settings.parse({ agentCommands: { claude: CMD, codex: CMD } });
    expect(applyExecutorSettings(ex, two)).toBe('rebuild');
    expect(ex.settings().concurrency).toBe(1);
  });

  it('follows settings:didChange on the bridge: in place, else a rebuild while idle', async () => {
    const ex = await executor('claude');
    const settings = settingsService({ agentCommands: { claude: CMD } });
    const events = createBridgeEvents();
    let rebuilds = 0;
    const follow = followExecutorSettings({
      events,
      settings,
      current: () => ex,
      rebuild: () => (rebuilds += 1),
    });

    settings.update({ concurrency: 5, missedRunPolicy: 'skip' });
    expect(ex.settings().concurrency).toBe(1); // nothing until the bridge says the settings changed
    events.emit('settings:didChange', {} as never);
    expect(ex.settings()).toMatchObject({ concurrency: 5, missedRunPolicy: 'skip' });
    expect(rebuilds).toBe(0);

    settings.update({ agentCommands: { codex: CMD } });
    events.emit('settings:didChange', {} as never);
    expect(rebuilds).toBe(1);

    follow.dispose();
    events.emit('settings:didChange', {} as never);
    expect(rebuilds).toBe(1);
  });
});
