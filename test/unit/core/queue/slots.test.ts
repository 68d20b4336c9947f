import { describe, expect, it } from 'vitest';
import { nextOccurrence } from '../../../../src-main/core/executor/occurrences';
import { upcomingSlots, wallTimeToInstant } from '../../../../src-main/core/queue/slots';
import type { QueueSchedule } from '../../../../src-shared/queue';

const at = (list: { at: Date }[]) => list.map((s) => s.at.toISOString());
const everyDay = (time: string) => [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time }));

describe('upcomingSlots', () => {
  it('lists Mon–Fri 09:00 and 13:00 in Berlin, earliest first, strictly after the clock', () => {
    const berlin: QueueSchedule = {
      timezone: 'Europe/Berlin',
      slots: [1, 2, 3, 4, 5].flatMap((weekday) => [
        { weekday, time: '13:00' },
        { weekday, time: '09:00' },
      ]),
    };
    // Friday 2030-01-04 09:00 Berlin is 08:00Z: that slot is "now", so it is not upcoming.
    const got = upcomingSlots(berlin, new Date('2030-01-04T08:00:00Z'), 4);
    expect(at(got)).toEqual([
      '2030-01-04T12:00:00.000Z',
      '2030-01-07T08:00:00.000Z',
      '2030-01-07T12:00:00.000Z',
      '2030-01-08T08:00:00.000Z',
    ]);
    expect(got.map((s) => s.date)).toEqual(['2030-01-04', '2030-01-07', '2030-01-07', '2030-01-08']);
  });

  it('keeps the wall time across the spring change: 09:00 Berlin moves from 08:00Z to 07:00Z', () => {
    const got = upcomingSlots(
      { timezone: 'Europe/Berlin', slots: everyDay('09:00') },
      new Date('2030-03-29T00:00:00Z'),
      4,
    );
    expect(at(got)).toEqual([
      '2030-03-29T08:00:00.000Z',
      '2030-03-30T08:00:00.000Z',
      '2030-03-31T07:00:00.000Z',
      '2030-04-01T07:00:00.000Z',
    ]);
  });

  it('moves a slot in the spring gap forward by the gap, once, as the executor does (02:30 → 03:30 CEST)', () => {
    const schedule: QueueSchedule = { timezone: 'Europe/Berlin', slots: everyDay('02:30') };
    const got = upcomingSlots(schedule, new Date('2030-03-29T00:00:00Z'), 4);
    expect(at(got)).toEqual([
      '2030-03-29T01:30:00.000Z',
      '2030-03-30T01:30:00.000Z',
      // Sunday 2030-03-31: 02:30 does not exist in Berlin; it is 03:30 summer time.
      '2030-03-31T01:30:00.000Z',
      '2030-04-01T00:30:00.000Z',
    ]);
    // The same instants croner (the executor's and the sandbox's schedules) gives for the same wall time.
    let cursor = new Date('2030-03-29T00:00:00Z');
    const cron: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      cursor = nextOccurrence({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, cursor) as Date;
      cron.push(cursor.toISOString());
    }
    expect(at(got)).toEqual(cron);
  });

  it('counts a gap slot and the slot it lands on once (02:30 and 03:30 on the spring Sunday)', () => {
    const got = upcomingSlots(
      {
        timezone: 'Europe/Berlin',
        slots: [
          { weekday: 7, time: '02:30' },
          { weekday: 7, time: '03:30' },
        ],
      },
      new Date('2030-03-30T12:00:00Z'),
      2,
    );
    expect(at(got)).toEqual(['2030-03-31T01:30:00.000Z', '2030-04-07T00:30:00.000Z']);
  });

  it('puts a slot in the autumn overlap on the first of the two instants, once, as the executor does', () => {
    const schedule: QueueSchedule = { timezone: 'Europe/Berlin', slots: everyDay('02:30') };
    const got = upcomingSlots(schedule, new Date('2030-10-25T00:00:00Z'), 4);
    expect(at(got)).toEqual([
      '2030-10-25T00:30:00.000Z',
      '2030-10-26T00:30:00.000Z',
      // Sunday 2030-10-27: 02:30 happens at 00:30Z (summer time) and again at 01:30Z; only the first is a slot.
      '2030-10-27T00:30:00.000Z',
      '2030-10-28T01:30:00.000Z',
    ]);
    let cursor = new Date('2030-10-25T00:00:00Z');
    const cron: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      cursor = nextOccurrence({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, cursor) as Date;
      cron.push(cursor.toISOString());
    }
    expect(at(got)).toEqual(cron);
  });

  it('picks the first instant of an overlap in a zone west of Greenwich too (New York, 01:30 EDT)', () => {
    expect(wallTimeToInstant('America/New_York', 2030, 11, 3, 1, 30).toISOString()).toBe(
      '2030-11-03T05:30:00.000Z',
    );
    expect(wallTimeToInstant('America/New_York', 2030, 3, 10, 2, 30).toISOString()).toBe(
      '2030-03-10T07:30:00.000Z',
    );
  });

  it('has no slots for an empty schedule', () => {
    expect(upcomingSlots({ timezone: 'UTC', slots: [] }, new Date('2030-01-01T00:00:00Z'), 5)).toEqual([]);
  });
});
