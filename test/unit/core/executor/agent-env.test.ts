import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildAgentEnv } from '../../../../src-main/core/executor/agent-env';

const files = {
  runDir: '/r',
  outputFile: '/r/output.json',
  taskFile: '/r/task.md',
  runJsonFile: '/r/run.json',
};
const KEY = 'pd_live_0123456789abcdef';
const TOKEN = 'pdrt_fedcba9876543210';

describe('buildAgentEnv', () => {
  it('passes the run directory, output path, PATH and HOME, and nothing else from the parent', () => {
    const env = buildAgentEnv(
      { ...files, secrets: [KEY, TOKEN] },
      {
        PATH: '/usr/bin',
        HOME: '/home/u',
        AWS_SECRET_ACCESS_KEY: 'x',
        HTTPS_PROXY: 'http://p',
        POSTDESK_API_KEY: KEY,
      },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      POSTDESK_RUN_DIR: '/r',
      POSTDESK_OUTPUT: '/r/output.json',
      POSTDESK_TASK: '/r/task.md',
      POSTDESK_RUN_JSON: '/r/run.json',
    });
  });

  it("keeps the agent's own configured variables but drops any that carry the API key or run token", () => {
    const env = buildAgentEnv(
      {
        ...files,
        extra: {
          MODEL_API_KEY: 'sk-model',
          LEAK: `Bearer ${TOKEN}`,
          POSTDESK_API_KEY: 'anything',
          ALSO: KEY,
        },
        secrets: [KEY, TOKEN],
      },
      { PATH: '/bin' },
    );
    expect(env.MODEL_API_KEY).toBe('sk-model');
    expect(env.LEAK).toBeUndefined();
    expect(env.ALSO).toBeUndefined();
    expect(env.POSTDESK_API_KEY).toBeUndefined();
    expect(Object.values(env).join(' ')).not.toMatch(/pd_live|pdrt_/);
  });
});

describe('docs/executor.md and buildAgentEnv agree on what an agent inherits', () => {
  const doc = readFileSync(new URL('../../../../docs/executor.md', import.meta.url), 'utf8');
  const sentence = /\*\*Environment:\*\*([\s\S]*?)Nothing else is inherited\./.exec(doc)?.[1] ?? '';
  const named = [...sentence.matchAll(/`([A-Z_]+\*?)`/g)]
    .map((m) => m[1]!)
    .filter((n) => !n.startsWith('POSTDESK_'));

  it('passes every variable the page names, including each LC_* category', () => {
    expect(named).toEqual(expect.arrayContaining(['PATH', 'HOME', 'LANG', 'LC_*', 'TZ', 'TMPDIR']));
    const parent: Record<string, string> = { LC_MESSAGES: 'de_DE.UTF-8', LC_TIME: 'en_GB.UTF-8' };
    for (const n of named) if (!n.endsWith('*')) parent[n] = `value of ${n}`;
    const env = buildAgentEnv({ ...files, secrets: [KEY] }, parent);
    for (const [n, v] of Object.entries(parent)) expect(env[n], n).toBe(v);
  });

  it('passes nothing the page does not name', () => {
    const env = buildAgentEnv(
      { ...files, secrets: [KEY] },
      {
        LD_PRELOAD: '/tmp/x.so',
        NODE_OPTIONS: '--require /tmp/x.js',
        LC_ALL_EVIL: 'x',
        lc_all: 'x',
        DBUS_SESSION_BUS_ADDRESS: 'unix:x',
      },
    );
    expect(Object.keys(env).filter((n) => !n.startsWith('POSTDESK_'))).toEqual([]);
  });
});
