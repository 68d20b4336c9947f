import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { ExecutorHost } from '../../src-main/app/executor-host';
import { executorControlContract } from '../helpers/executor-control-contract';
import { MemoryLog, until } from '../helpers/shell-fakes';
import { AUTOMATION_ID, agentCommand, automation, startHarness } from './executor-harness';

/**
 * The desktop's ExecutorHost over a real Executor on the sandbox, with a real agent process held at a
 * gate file: the same suite the shell tests' FakeExecutor passes.
 */
describe('ExecutorHost over a real executor keeps the ExecutorControl contract', () => {
  executorControlContract(
    async () => {
      const gateDir = await mkdtemp(join(tmpdir(), 'postdesk-gate-'));
      const gate = join(gateDir, 'gate');
      const h = await startHarness({
        // Once a year: no occurrence falls due while the clock stands still, only the runs the test starts.
        automations: [automation({ schedule: { cron: '0 0 1 1 *', timezone: 'UTC' } })],
        executor: { agent: agentCommand('--mode', 'wait', '--gate', gate) },
      });
      const host = new ExecutorHost(new MemoryLog());
      await host.use(h.executor);
      // The executor shows "stopped" until its first pass has registered it; the contract starts after.
      await until(() => host.state() === 'idle', 'the first pass', 15_000);
      return {
        control: host,
        async startRun() {
          await rm(gate, { force: true });
          await rm(`${gate}.waiting`, { force: true });
          const info = await h.executor.runNow(AUTOMATION_ID);
          await until(() => existsSync(`${gate}.waiting`), 'the agent waiting at its gate', 15_000);
          const listed = host.activeRuns();
          if (listed.length !== 1 || listed[0]?.id === info.localId)
            throw new Error(`expected one run known to the service, got ${JSON.stringify(listed)}`);
          return listed[0]?.id ?? '';
        },
        async release(o = {}) {
          // Written aside and renamed: the agent must never see the gate before its word is in it.
          await writeFile(`${gate}.next`, o.fail ? 'fail' : 'ok');
          await rename(`${gate}.next`, gate);
        },
        async close() {
          host.dispose();
          await h.close();
          await rm(gateDir, { recursive: true, force: true });
        },
      };
    },
    { timeoutMs: 15_000 },
  );
});
