import { describe, expect, it } from 'vitest';
import { quitQuestion, sleepNotice, inWords } from '../../../../src-main/core/gaps/decisions';
import { upcomingOccurrences } from '../../../../src-main/core/gaps/upcoming';

/** The quit and sleep decisions on a manual clock: the automations' own schedules, and times chosen by the test. */

const automation = (id: string, name: string, cron: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  status: 'active' as const,
  queue: 'local' as const,
  schedule: { cron, timezone: 'UTC' },
  ...extra,
});

const daily9 = automation('a1', 'Morning tip', '0 9 * * *');
const hourly = automation('a2', 'Hourly recap', '30 * * * *');
const paused = automation('a3', 'Paused one', '* * * * *', { status: 'paused' });
const legacy = automation('a4', 'Legacy queue', '* * * * *', { queue: 'legacy' });

const at = (iso: string) => new Date(iso);
const soon = (now: Date, list = [daily9, hourly, paused, legacy]) =>
  upcomingOccurrences(list, now, { limit: 50, until: new Date(now.getTime() + 48 * 3600_000) });

describe('upcoming occurrences', () => {
  it('lists only active local automations, soonest first', () => {
    const now = at('2030-01-01T08:00:00Z');
    const next = upcomingOccurrences([daily9, hourly, paused, legacy], now, { limit: 3 });
    expect(next.map((o) => [o.automationName, o.at.toISOString()])).toEqual([
      ['Hourly recap', '2030-01-01T08:30:00.000Z'],
      ['Morning tip', '2030-01-01T09:00:00.000Z'],
      ['Hourly recap', '2030-01-01T09:30:00.000Z'],
    ]);
  });

  it('has no occurrence for a schedule that does not parse', () => {
    expect(
      upcomingOccurrences([automation('b', 'Broken', 'not a cron')], at('2030-01-01T00:00:00Z'), {
        limit: 5,
      }),
    ).toEqual([]);
  });
});

describe('asking before quitting', () => {
  it('asks when one is due in the next 24 hours, naming the next occurrence', () => {
    const now = at('2030-01-01T05:40:00Z');
    const q = quitQuestion(soon(now, [daily9]), now);
    expect(q?.next).toMatchObject({ automationName: 'Morning tip', at: at('2030-01-01T09:00:00Z') });
    expect(q?.detail).toContain('“Morning tip” is due in 3 h 20 min');
    expect(q?.detail).toContain('only while Postdesk is running');
    expect(q?.due).toBe(1);
  });

  it('counts the others due in the window', () => {
    const now = at('2030-01-01T08:00:00Z');
    const q = quitQuestion(soon(now, [daily9, hourly]), now);
    expect(q?.next.automationName).toBe('Hourly recap');
    // 24 recaps (08:30 … next day 07:30) and one morning tip.
    expect(q?.due).toBe(25);
    expect(q?.detail).toContain('24 more fall due in the next 24 hours');
  });

  it('does not ask when nothing is due within 24 hours, or nothing runs here', () => {
    const weekly = automation('w', 'Weekly', '0 9 * * 1'); // Mondays; 2030-01-01 is a Tuesday
    const now = at('2030-01-01T10:00:00Z');
    expect(quitQuestion(soon(now, [weekly]), now)).toBeNull();
    expect(quitQuestion(soon(now, [paused, legacy]), now)).toBeNull();
    // Exactly 24 h ahead still asks; a minute later it does not.
    expect(
      quitQuestion(soon(at('2030-01-01T09:00:00Z'), [daily9]), at('2030-01-01T09:00:00Z')),
    ).not.toBeNull();
    expect(
      quitQuestion(
        [{ automationId: 'x', automationName: 'x', at: at('2030-01-02T09:01:00Z') }],
        at('2030-01-01T09:00:00Z'),
      ),
    ).toBeNull();
  });
});

describe('warning before sleep', () => {
  it('warns when one is due within the hour, and not otherwise', () => {
    const early = at('2030-01-01T07:59:00Z');
    expect(sleepNotice(soon(early, [daily9]), early)).toBeNull();
    const close = at('2030-01-01T08:15:00Z');
    const n = sleepNotice(soon(close, [daily9]), close);
    expect(n?.title).toBe('Due in 45 min: Morning tip');
    expect(n?.body).toContain('going to sleep');
  });

  it('words durations as a person reads them', () => {
    expect(inWords(30_000)).toBe('in less than a minute');
    expect(inWords(60 * 60_000)).toBe('in 1 h');
    expect(inWords(61 * 60_000)).toBe('in 1 h 1 min');
  });
});
