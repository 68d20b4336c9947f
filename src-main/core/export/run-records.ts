import type { RunRecord } from '../../../src-shared/ipc/runs';
import { localTime, utcTime } from './local-time';
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
    scheduled_for: utcTime(r.scheduled_for) || null,
    scheduled_for_local: localTime(r.scheduled_for, zone) || null,
    started_at: utcTime(r.started_at) || null,
    started_at_local: localTime(r.started_at, zone) || null,
    finished_at: utcTime(r.finished_at) || null,
    finished_at_local: localTime(r.finished_at, zone) || null,
    timezone: zone,
    reason: r.reason,
  };
}
