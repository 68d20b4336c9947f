import type { Clock } from './clock';
import { runInfo, type RunInfo } from './executor-events';
import type { Journal } from './journal';
import { runNowRow } from './occurrence-planner';
import type { RunPump } from './run-pump';
import type { AutomationSync } from './sync';

/** Queues one run of an automation now, outside its schedule (idempotency key with the current time). */
export async function queueRunNow(
  parts: {
    readonly sync: Pick<AutomationSync, 'automations' | 'refresh'>;
    readonly journal: Journal;
    readonly pump: RunPump;
    readonly clock: Clock;
  },
  automationId: string,
): Promise<RunInfo> {
  const { sync, journal, pump, clock } = parts;
  const a = sync.automations.get(automationId) ?? (await sync.refresh(automationId)) ?? undefined;
  if (!a) throw new Error(`automation ${automationId} is not one of this executor's`);
  if (a.queue !== 'local') throw new Error('runs of a legacy-queue automation come from the claim queue');
  const row = journal.insert(runNowRow(a, clock.now()));
  if (!row) throw new Error('a run for this instant already exists');
  pump.enqueue(row);
  pump.pump();
  return runInfo(journal.get(row.id) ?? row);
}
