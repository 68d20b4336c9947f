import { describe, expect, it } from 'vitest';
import {
  nextOccurrence,
  occurrencesBetween,
  planOccurrences,
} from '../../../../src-main/core/executor/occurrences';

const d = (iso: string) => new Date(iso);
const iso = (dates: Date[]) => dates.map((x) => x.toISOString());

describe('occurrencesBetween', () => {
  it('lists occurrences in (after, upTo], oldest first', () => {
    const got = occurrencesBetween(
      { cron: '0 * * * *', timezone: 'UTC' },
      d('2030-01-01T12:00:00Z'),
      d('2030-01-01T15:00:00Z'),
    );
    expect(iso(got)).toEqual([
      '2030-01-01T13:00:00.000Z',
      '2030-01-01T14:00:00.000Z',
      '2030-01-01T15:00:00.000Z',
    ]);
  });

  it("follows the automation's time zone across a DST change", () => {
    // Europe/Berlin springs forward on 2030-03-31: 09:00 local is 08:00Z before and 07:00Z after.
    const got = occurrencesBetween(
      { cron: '0 9 * * *', timezone: 'Europe/Berlin' },
      d('2030-03-29T00:00:00Z'),
      d('2030-04-02T00:00:00Z'),
    );
    expect(iso(got)).toEqual([
      '2030-03-29T08:00:00.000Z',
      '2030-03-30T08:00:00.000Z',
      '2030-03-31T07:00:00.000Z',
      '2030-04-01T07:00:00.000Z',
    ]);
  });

  it('keeps only the newest `max` occurrences of a long gap', () => {
    const got = occurrencesBetween(
      { cron: '* * * * *', timezone: 'UTC' },
      d('2030-01-01T00:00:00Z'),
      d('2030-01-02T00:00:00Z'),
      3,
    );
    expect(iso(got)).toEqual([
      '2030-01-01T23:58:00.000Z',
      '2030-01-01T23:59:00.000Z',
      '2030-01-02T00:00:00.000Z',
    ]);
  });

  it('throws on an invalid cron or time zone', () => {
    expect(() =>
      occurrencesBetween(
        { cron: '61 * * * *', timezone: 'UTC' },
        d('2030-01-01T00:00:00Z'),
        d('2030-01-02T00:00:00Z'),
      ),
    ).toThrow();
    expect(() =>
      nextOccurrence({ cron: '0 * * * *', timezone: 'Mars/Olympus' }, d('2030-01-01T00:00:00Z')),
    ).toThrow();
  });
});

describe('planOccurrences', () => {
  const now = d('2030-01-01T18:10:00Z');
  const missed = ['13', '14', '15', '16', '17'].map((h) => d(`2030-01-01T${h}:00:00Z`));
  const opts = {
    onTimeMs: 120_000,
    graceMs: 2 * 3_600_000,
    missedBecause: 'the computer was asleep',
    missedCode: 'executor_offline' as const,
  };

  it('latest: runs the newest missed occurrence within the grace window and explains each skipped one', () => {
    const plan = planOccurrences(missed, now, { ...opts, policy: 'latest' });
    expect(plan.filter((p) => p.action === 'run').map((p) => p.scheduledFor.toISOString())).toEqual([
      '2030-01-01T17:00:00.000Z',
    ]);
    const skipped = plan.filter((p) => p.action === 'skip');
    expect(skipped).toHaveLength(4);
    expect(skipped[0]).toMatchObject({
      code: 'executor_offline',
      reason:
        'missed: the computer was asleep at 2030-01-01T13:00:00.000Z (5 h ago); policy "latest" runs only the newest missed occurrence',
    });
  });

  it('latest: an on-time occurrence supersedes the missed ones', () => {
    const plan = planOccurrences([...missed, d('2030-01-01T18:09:00Z')], now, { ...opts, policy: 'latest' });
    expect(plan.filter((p) => p.action === 'run').map((p) => p.scheduledFor.toISOString())).toEqual([
      '2030-01-01T18:09:00.000Z',
    ]);
  });

  it('skip runs none of the missed ones; all runs every one', () => {
    expect(planOccurrences(missed, now, { ...opts, policy: 'skip' }).every((p) => p.action === 'skip')).toBe(
      true,
    );
    expect(planOccurrences(missed, now, { ...opts, policy: 'all' }).every((p) => p.action === 'run')).toBe(
      true,
    );
  });

  it('an occurrence within onTimeMs is simply on time, whatever the policy', () => {
    const plan = planOccurrences([d('2030-01-01T18:09:00Z')], now, { ...opts, policy: 'skip' });
    expect(plan).toEqual([{ scheduledFor: d('2030-01-01T18:09:00Z'), action: 'run', late: false }]);
  });
});
