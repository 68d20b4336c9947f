import type { Automation } from '../../../src-shared/api';
import type { Logger } from '../common/logger';
import type { Tuning } from './config';
import type { ExecutorEvents } from './executor-events';
import type { Journal } from './journal';
import { planAutomation, type MissedContext } from './occurrence-planner';
import type { RunPump } from './run-pump';

/** Records the planner's decision for every occurrence of `a` since its cursor, then queues those that run. */
export function recordPlan(
  parts: {
    readonly journal: Journal;
    readonly pump: RunPump;
    readonly events: ExecutorEvents;
    readonly logger: Logger;
    readonly tuning: Readonly<Tuning>;
  },
  a: Automation,
  now: Date,
  missed: MissedContext,
  busySince?: Date,
): void {
  const plan = planAutomation(a, parts.journal.automation(a.id), now, parts.tuning, missed, busySince);
  if (plan.kind === 'none') return;
  if (plan.problem) parts.logger.warn(plan.problem);
  for (const row of parts.journal.recordOccurrences(a.id, plan.cursor, plan.rows)) {
    if (row.state === 'queued') parts.pump.enqueue(row);
    else parts.events.notRun(row, a.name);
  }
}
