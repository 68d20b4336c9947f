import { UPCOMING_COUNT } from '../../../src-shared/ipc/schedule';
import type { Automation } from '../../../src-shared/api/automations';
import { upcomingOccurrences } from '../gaps/upcoming';
import { markByLastWeek, WEEK_MS, type UptimeLog } from '../gaps/uptime';
import type { Handlers } from './handler-types';
import type { BridgeApi, ExecutorPort } from './ports';

export interface ScheduleHandlerDeps {
  readonly api: () => Promise<BridgeApi>;
  readonly executor?: ExecutorPort | undefined;
  readonly uptime: UptimeLog;
  readonly now: () => Date;
}

/** `schedule:*`: the next occurrences across this computer's automations, marked by last week's running pattern. */
export function createScheduleHandlers(deps: ScheduleHandlerDeps): Handlers['schedule'] {
  /** The running executor's own list; without one, the service's automations bound to no other executor. */
  const automations = async (): Promise<readonly Automation[]> => {
    const own = deps.executor?.automations();
    if (own && own.length > 0) return own;
    const { automations: all } = await (await deps.api()).listAutomations();
    return all.filter((a) => !a.executor_id);
  };
  return {
    upcoming: async () => {
      const now = deps.now();
      const next = upcomingOccurrences(await automations(), now, { limit: UPCOMING_COUNT });
      const since = deps.uptime.firstStart('executor');
      const sessions = deps.uptime.sessions('executor', now.getTime() - 2 * WEEK_MS);
      const marked = markByLastWeek(next, sessions, since, now);
      return {
        occurrences: marked.map((o) => ({
          automation_id: o.automationId,
          automation_name: o.automationName,
          at: o.at.toISOString(),
          last_week: o.lastWeek,
        })),
        history_since: since === null ? null : new Date(since).toISOString(),
      };
    },
  };
}
