import { describe, expect, it } from 'vitest';
import { RUN_EXPORT_COLUMNS, runRecord } from '../../../../src-main/core/export/run-records';

describe('times in an export record', () => {
  it('writes each time in UTC and in the zone, in the columns order, null where there is none', () => {
    const record = runRecord(
      {
        id: 'run-1',
        automation_id: 'a-1',
        automation_name: 'Weekly',
        revision: 3,
        state: 'failed',
        scheduled_for: '2026-03-01T09:00:00+01:00',
        started_at: '2026-03-01T08:00:05.5Z',
        finished_at: null,
        reason: 'the agent exited with 2',
      },
      'Europe/Berlin',
    );
    expect(Object.keys(record)).toEqual([...RUN_EXPORT_COLUMNS]);
    expect(record).toMatchObject({
      scheduled_for: '2026-03-01T08:00:00.000Z',
      scheduled_for_local: '2026-03-01 09:00:00',
      started_at: '2026-03-01T08:00:05.500Z',
      started_at_local: '2026-03-01 09:00:05',
      finished_at: null,
      finished_at_local: null,
      timezone: 'Europe/Berlin',
    });
  });
});
