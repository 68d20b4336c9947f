import type { RunRecord } from '../../../src-shared/ipc/runs';
import { bothTimes } from './local-time';
import type { ExportRecord } from './write-export';

/** Run history as the Automations screen lists it, with each time in UTC and in the export's zone. */
export const RUN_EXPORT_COLUMNS = [
  'run_id',
  'automation_id',
  'automation_name',
  'revision',
  'state',
  'scheduled_for',
  'scheduled_for_local',
  'started_at',
  'started_at_local',
  'finished_at',
  'finished_at_local',
  'timezone',
  'reason',
] as const;

export function runRecord(r: Readonly<RunRecord>, zone: string): ExportRecord {
  return {
    run_id: r.id,
    automation_id: r.automation_id,
    automation_name: r.automation_name,
    revision: r.revision,
    state: r.state,
    ...bothTimes('scheduled_for', r.scheduled_for, zone),
    ...bothTimes('started_at', r.started_at, zone),
    ...bothTimes('finished_at', r.finished_at, zone),
    timezone: zone,
    reason: r.reason,
  };
}
