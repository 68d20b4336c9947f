import type { Automation } from '../../../src-shared/api/automations';
import { nextOccurrence } from '../executor/occurrences';
import { BridgeFault, unavailable } from './bridge-fault';
import type { Handlers } from './handler-types';
import type { ExecutorPort } from './ports';

/** What the handlers take from the embedded executor: its channels, `automations:runNow` and next occurrences. */
export interface ExecutorHandlers {
  readonly runs: Handlers['runs'];
  readonly executor: Handlers['executor'];
  readonly runNow: Handlers['automations']['runNow'];
  /** An active automation's next occurrence as an ISO instant, or null; throws on an invalid schedule. */
  nextOccurrence(a: Automation, after: Date): string | null;
}

/** The channels of a running executor (`executor-port.ts`). */
export function executorHandlers(executor: ExecutorPort): ExecutorHandlers {
  return {
    runs: {
      list: async (filter) => ({ runs: [...(await executor.listRuns(filter))] }),
      get: async ({ id }) => {
        const detail = await executor.getRun(id);
        if (!detail) throw new BridgeFault('not_found', 'No such run.');
        return detail;
      },
    },
    executor: {
      status: () => executor.status(),
      pause: () => executor.pause(),
      resume: () => executor.resume(),
      syncNow: () => executor.syncNow(),
      metrics: () => executor.metrics(),
    },
    runNow: async ({ id }) => ({ run: await executor.runNow(id) }),
    nextOccurrence: (a) => executor.nextOccurrence(a),
  };
}

/**
 * Where no executor runs here (`postdesk web` on a real service): its channels answer `unavailable`, and the next
 * occurrence is read from the schedule alone.
 */
export function noExecutorHandlers(): ExecutorHandlers {
  const no = async (): Promise<never> => {
    throw unavailable('The executor');
  };
  return {
    runs: { list: no, get: no },
    executor: { status: no, pause: no, resume: no, syncNow: no, metrics: no },
    runNow: no,
    nextOccurrence: (a, after) => nextOccurrence(a.schedule, after)?.toISOString() ?? null,
  };
}
