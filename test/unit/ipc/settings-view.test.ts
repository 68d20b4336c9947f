import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocal } from '../../../src-main/core/services';
import { MemorySecretStore } from '../../../src-main/host/memory-secret-store';
import { GUARDED_SETTINGS, SettingsPatch, type SettingsView } from '../../../src-shared/ipc/settings';
import { PAGE_SETTINGS, Settings } from '../../../src-shared/settings';
import { ALLOW_ALL, makeBridge, type TestBridge } from './helpers';

/**
 * The page's settings are derived from the one declaration in src-shared/settings.ts: these tests hold the
 * derivation to the store on one side and the bridge on the other, through the real bridge.
 */

let tb: TestBridge;
beforeAll(async () => {
  tb = await makeBridge(undefined, { confirm: ALLOW_ALL });
});
afterAll(async () => {
  await tb.close();
});

const invoke = async (channel: string, input?: unknown): Promise<SettingsView> => {
  const r = (await tb.bridge.dispatcher.invoke(channel as never, input)) as {
    ok: boolean;
    value?: SettingsView;
    error?: unknown;
  };
  if (!r.ok) throw new Error(`${channel} failed: ${JSON.stringify(r.error)}`);
  return r.value!;
};

/** What the store holds, read by a second connection as the executor and the CLI read it. */
function stored(): Settings {
  const local = openLocal(tb.dir, new MemorySecretStore());
  try {
    return { ...local.settings.get() };
  } finally {
    local.store.close();
  }
}

/** A value other than the default for every setting the page shows, with what the store keeps for it. */
const CHANGES: { [K in keyof Required<SettingsPatch>]: readonly [SettingsView[K], unknown] } = {
  time_zone: ['Asia/Kolkata', 'Asia/Kolkata'],
  week_start: ['sunday', 'sunday'],
  clock: ['24h', '24h'],
  theme: ['dark', 'dark'],
  density: ['compact', 'compact'],
  first_run_dismissed: [true, true],
  base_url: ['https://service.example/', 'https://service.example/'],
  alias_url: ['https://alias.example/', 'https://alias.example/'],
  proxy_url: ['http://proxy.example:3128/', 'http://proxy.example:3128/'],
  executor_name: ['studio-mac', 'studio-mac'],
  agent_commands: [
    [{ agent_type: 'claude', command: '/usr/bin/claude', args: ['-p', 'go'] }],
    { claude: { command: '/usr/bin/claude', args: ['-p', 'go'] } },
  ],
  concurrency: [3, 3],
  missed_run_policy: ['all', 'all'],
  grace_window_minutes: [45, 45],
  start_at_login: [true, true],
  update_channel: ['beta', 'beta'],
  ffmpeg_path: ['/opt/ff/ffmpeg', '/opt/ff/ffmpeg'],
  ffprobe_path: ['/opt/ff/ffprobe', '/opt/ff/ffprobe'],
  automation_folders: [[{ automation_id: 'auto_1', folder: '~/clips' }], { auto_1: '~/clips' }],
  automation_agents: [[{ automation_id: 'auto_1', agent_type: 'card' }], { auto_1: 'card' }],
  assistant_tool_policies: [{ create_post: 'allow' }, { create_post: 'allow' }],
};
const camel = (snake: string): string => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

describe('the settings the page sees', () => {
  it('are the page settings of the one declaration, snake_cased, and no other stored setting', async () => {
    const { log_file: logFile, ...view } = await invoke('settings:get');
    // The host's fact beside them: this bridge keeps no log file.
    expect(logFile).toBeNull();
    expect(Object.keys(view).map(camel).sort()).toEqual(Object.keys(PAGE_SETTINGS).sort());
    // The grace window reaches the page with its default.
    expect(view.grace_window_minutes).toBe(Settings.shape.graceWindowMinutes.parse(undefined));
    // Every page setting has a change below, so none escapes the round trip.
    expect(Object.keys(CHANGES).sort()).toEqual(Object.keys(view).sort());
  });

  it('each change from the page is what the store keeps under its own name, and what the page reads back', async () => {
    for (const [key, [value, kept]] of Object.entries(CHANGES)) {
      const after = await invoke('settings:update', { [key]: value });
      expect(after[key as keyof SettingsView], key).toEqual(value);
      expect(stored()[camel(key) as keyof Settings], key).toEqual(kept);
    }
    // Each later patch left the earlier settings as they were.
    const view = await invoke('settings:get');
    for (const [key, [value]] of Object.entries(CHANGES))
      expect(view[key as keyof SettingsView]).toEqual(value);
    expect(view.log_file).toBeNull();
  });

  it('a patch holds only what it names: no default fills the settings it leaves out', () => {
    expect(SettingsPatch.parse({ concurrency: 2 })).toEqual({ concurrency: 2 });
    expect(() => SettingsPatch.parse({})).toThrow();
    // The host's facts are read-only: a patch naming only one changes nothing and is refused.
    expect(() => SettingsPatch.parse({ log_file: '/tmp/elsewhere.log' })).toThrow();
  });

  it('a time zone must be one this computer knows; none means the computer’s own', () => {
    expect(SettingsPatch.parse({ time_zone: 'Europe/Paris' })).toEqual({ time_zone: 'Europe/Paris' });
    expect(SettingsPatch.parse({ time_zone: null })).toEqual({ time_zone: null });
    expect(() => SettingsPatch.parse({ time_zone: 'Mars/Olympus_Mons' })).toThrow(/time zone name/);
    expect(() => SettingsPatch.parse({ week_start: 'wednesday' })).toThrow();
  });

  it('a setting off the page cannot be changed from it', async () => {
    const before = stored();
    const r = (await tb.bridge.dispatcher.invoke(
      'settings:update' as never,
      {
        agent_confinement: 'off',
        agentConfinement: 'off',
        run_retention_days: 1,
      } as never,
    )) as { ok: boolean };
    expect(r.ok).toBe(false);
    const mixed = await invoke('settings:update', {
      concurrency: 2,
      agent_network: false,
      agentNetwork: false,
    });
    expect(mixed.concurrency).toBe(2);
    const after = stored();
    expect([after.agentConfinement, after.agentNetwork, after.runRetentionDays]).toEqual([
      before.agentConfinement,
      before.agentNetwork,
      before.runRetentionDays,
    ]);
  });

  it('guards every setting that names a program, a folder, where the API key goes or what an AI assistant may publish', () => {
    expect([...GUARDED_SETTINGS].sort()).toEqual(
      [
        'agent_commands',
        'alias_url',
        'assistant_tool_policies',
        'automation_agents',
        'automation_folders',
        'base_url',
        'ffmpeg_path',
        'ffprobe_path',
        'proxy_url',
      ].sort(),
    );
  });
});
