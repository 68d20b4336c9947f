import { describe } from 'vitest';
import { executorControlContract } from '../../helpers/executor-control-contract';
import { FakeExecutor } from '../../helpers/shell-fakes';

describe('FakeExecutor keeps the ExecutorControl contract', () => {
  executorControlContract(async () => {
    const fake = new FakeExecutor();
    let n = 0;
    return {
      control: fake,
      async startRun() {
        const id = `run-${(n += 1)}`;
        fake.startRun(id, 'Morning post');
        return id;
      },
      async release(o = {}) {
        for (const r of fake.activeRuns()) {
          if (o.fail) fake.emitFailedRun({ runId: r.id, automationName: r.name, error: 'agent exited 3' });
          fake.finishRun(r.id);
        }
      },
      async close() {},
    };
  });
});
