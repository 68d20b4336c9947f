import { describe, expect, it } from 'vitest';
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
