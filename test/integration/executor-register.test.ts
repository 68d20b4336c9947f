import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Executor } from '../../src-main/core/executor/executor';
import type { ExecutorState } from '../../src-main/core/executor/executor-events';
import { agentCommand, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

let h: Harness | undefined;
const extra: Executor[] = [];
afterEach(async () => {
  for (const e of extra.splice(0)) await e.stop({ graceMs: 0 });
  await h?.close();
  h = undefined;
});

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The same machine's executor again (same store and data directory): a restarted daemon. */
function restarted(harness: Harness): Executor {
  const ex = new Executor({
    api: harness.api,
    store: harness.store,
    scope: harness.sb.url,
    dataDir: join(harness.dir, 'a'),
    name: 'test a',
    agentType: 'test-agent',
    agent: agentCommand('--mode', 'ok'),
    clock: harness.clock,
    secrets: [harness.sb.apiKey],
    retryBaseMs: 5,
    syncIntervalMs: 60_000,
  });
  extra.push(ex);
  return ex;
}

describe('executor registration', () => {
  it.each([
    ['lost (the connection dies after the service acted)', { reset_rate: 1 }],
    ['refused for now (503)', { error_rate: 1 }],
  ])(
    'a restarted daemon whose registration is %s retries with backoff, shows "registering", and is registered soon after the service answers',
    async (_what, fault) => {
      h = await startHarness();
      await h.executor.runOnce();
      const id = h.executor.status().executorId;
      expect(id).not.toBeNull();
      await h.executor.stop({ graceMs: 0 });

      await h.sb.control.faults({ ...fault, paths: ['/api/agent/executors'] });
      const ex = restarted(h);
      const states: ExecutorState[] = [];
      ex.onDidChangeState((s) => states.push(s.state));
      ex.start();
      await waitFor(() => ex.state() === 'registering', 5000, 'the registering state');
      // Several tries go by while the fault holds; none waits for the sync interval (the virtual clock
      // stands still, so a wait for it would never end).
      await new Promise((r) => setTimeout(r, 800));
      expect(ex.state()).toBe('registering');
      expect(ex.status().executorId).toBeNull();
      await h.sb.control.faults({});
      await waitFor(() => ex.status().executorId !== null, 10_000, 'the registration');
      expect(ex.status().executorId).toBe(id);
      await waitFor(() => ex.state() === 'idle', 10_000, 'the first sync');
      expect(states[0]).toBe('registering');
      expect(states.at(-1)).toBe('idle');
      expect((await h.sb.control.state()).executors).toBe(1);
    },
  );

  it('stop() ends the registration retries', async () => {
    h = await startHarness();
    await h.sb.control.faults({ error_rate: 1, paths: ['/api/agent/executors'] });
    h.executor.start();
    await waitFor(() => h!.executor.state() === 'registering', 5000, 'the registering state');
    await h.executor.stop({ graceMs: 0 });
    expect(h.executor.state()).toBe('stopped');
    expect(h.executor.status().executorId).toBeNull();
  });
});
