import { afterEach, describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatTime,
  fromLocalInput,
  hour12,
  localZone,
  setDatePreferences,
  toLocalInput,
} from '../../../src-renderer/src/app/format';

// 05:30 UTC on Monday 2 March 2026: 14:30 in Tokyo, 00:30 (still Monday) in New York, 11:00 in Kolkata.
const AT = '2026-03-02T05:30:00.000Z';

afterEach(() => setDatePreferences({ timeZone: null, clock: 'auto' }));

describe('date formatting follows the Preferences', () => {
  it('shows the time in the chosen zone, on the 24-hour clock', () => {
    setDatePreferences({ timeZone: 'Asia/Tokyo', clock: '24h' });
    expect(formatDateTime(AT)).toMatch(/14:30/);
    expect(formatTime(AT)).toMatch(/14:30:00/);
    expect(formatDateTime(AT)).not.toMatch(/PM|AM/i);
  });

  it('shows the same instant on the 12-hour clock', () => {
    setDatePreferences({ timeZone: 'Asia/Tokyo', clock: '12h' });
    expect(formatDateTime(AT)).toMatch(/\b2:30\b/);
    expect(formatDateTime(AT)).toMatch(/PM/i);
    expect(formatDateTime(AT)).not.toMatch(/14:30/);
    expect(hour12()).toBe(true);
  });

  it('moves the day with the zone', () => {
    setDatePreferences({ timeZone: 'Pacific/Honolulu', clock: '24h' });
    // 19:30 on Sunday 1 March in Honolulu (UTC−10).
    expect(formatDateTime(AT)).toMatch(/19:30/);
    expect(formatDate(AT)).toMatch(/\b1\b/);
    setDatePreferences({ timeZone: 'Asia/Tokyo', clock: '24h' });
    expect(formatDate(AT)).toMatch(/\b2\b/);
  });

  it('leaves a calendar day (no time) as the day it names, whatever the zone', () => {
    setDatePreferences({ timeZone: 'Pacific/Kiritimati', clock: '24h' });
    expect(formatDay('2026-03-02')).toMatch(/\b2\b/);
    setDatePreferences({ timeZone: 'Pacific/Pago_Pago', clock: '24h' });
    expect(formatDay('2026-03-02')).toMatch(/\b2\b/);
  });

  it('auto leaves the clock to the language', () => {
    setDatePreferences({ timeZone: 'Asia/Tokyo', clock: 'auto' });
    expect(hour12()).toBeUndefined();
    const lang = new Intl.DateTimeFormat(undefined, {
      timeZone: 'Asia/Tokyo',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(AT));
    expect(formatDateTime(AT)).toContain(lang);
  });

  it('names the chosen zone, or the computer’s without one', () => {
    expect(localZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    setDatePreferences({ timeZone: 'Asia/Kolkata', clock: 'auto' });
    expect(localZone()).toBe('Asia/Kolkata');
  });
});

describe('the date-time picker reads and writes wall-clock time in the chosen zone', () => {
  it('shows an instant as the zone’s wall clock', () => {
    setDatePreferences({ timeZone: 'Asia/Kolkata', clock: 'auto' });
    expect(toLocalInput(AT)).toBe('2026-03-02T11:00');
    setDatePreferences({ timeZone: 'America/New_York', clock: 'auto' });
    expect(toLocalInput(AT)).toBe('2026-03-02T00:30');
  });

  it('turns the zone’s wall clock into the UTC instant, across a daylight-saving change', () => {
    setDatePreferences({ timeZone: 'Asia/Kolkata', clock: 'auto' });
    expect(fromLocalInput('2026-03-02T11:00')).toBe(AT);
    setDatePreferences({ timeZone: 'America/New_York', clock: 'auto' });
    expect(fromLocalInput('2026-03-07T09:00')).toBe('2026-03-07T14:00:00.000Z'); // EST, UTC−5
    expect(fromLocalInput('2026-03-09T09:00')).toBe('2026-03-09T13:00:00.000Z'); // EDT, UTC−4
    expect(toLocalInput(fromLocalInput('2026-07-01T18:45') as string)).toBe('2026-07-01T18:45');
  });

  it('without a chosen zone, uses the computer’s', () => {
    const d = new Date(2026, 2, 2, 11, 0);
    expect(fromLocalInput('2026-03-02T11:00')).toBe(d.toISOString());
    expect(toLocalInput(d.toISOString())).toBe('2026-03-02T11:00');
  });

  it('refuses an empty or malformed value', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
  });
});
