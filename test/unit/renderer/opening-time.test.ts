import { afterEach, describe, expect, it } from 'vitest';
import { setDatePreferences } from '../../../src-renderer/src/app/format';
import { openingTime } from '../../../src-renderer/src/features/calendar/opening-time';

// The week of Monday 2 March 2026, in UTC (the zone chosen below).
const WEEK = { start: new Date('2026-03-02T00:00:00Z'), end: new Date('2026-03-09T00:00:00Z') };

afterEach(() => setDatePreferences({ timeZone: null, clock: 'auto' }));

describe('where the week view opens', () => {
  it('at the hour of the earliest post, whatever their order', () => {
    setDatePreferences({ timeZone: 'UTC', clock: 'auto' });
    const starts = ['2026-03-04T15:00:00Z', '2026-03-06T05:45:00Z', '2026-03-03T09:10:00Z'];
    expect(openingTime(starts, new Date('2026-03-03T12:00:00Z'), WEEK)).toBe('05:00:00');
  });

  it('in the shown zone', () => {
    setDatePreferences({ timeZone: 'Asia/Tokyo', clock: 'auto' });
    // 05:45 UTC is 14:45 in Tokyo.
    expect(openingTime(['2026-03-06T05:45:00Z'], new Date(), WEEK)).toBe('14:00:00');
  });

  it('at now when the week holds no post but holds now; else at 08:00', () => {
    setDatePreferences({ timeZone: 'UTC', clock: 'auto' });
    expect(openingTime([], new Date('2026-03-05T03:20:00Z'), WEEK)).toBe('03:00:00');
    expect(openingTime([], new Date('2026-04-01T03:20:00Z'), WEEK)).toBe('08:00:00');
  });
});
