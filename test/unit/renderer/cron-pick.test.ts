import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import {
  cronToPick,
  pickProblem,
  pickToCron,
  scheduleInWords,
  type SchedulePick,
} from '../../../src-renderer/src/features/automations/schedule/cron-pick';

const words12 = {
  use24: false,
  time: (t: string) => (t === '09:00' ? '9:00 AM' : t === '18:30' ? '6:30 PM' : t),
};
const words24 = { use24: true, time: (t: string) => t };

describe('the schedule picker and cron', () => {
  const cases: [SchedulePick, string][] = [
    [{ kind: 'daily', time: '09:00' }, '0 9 * * *'],
    [{ kind: 'weekdays', time: '09:00' }, '0 9 * * 1-5'],
    [{ kind: 'days', days: [5, 1, 3], time: '18:30' }, '30 18 * * 1,3,5'],
    [{ kind: 'days', days: [0, 6], time: '07:05' }, '5 7 * * 0,6'],
    [{ kind: 'hours', every: 1, minute: 15 }, '15 * * * *'],
    [{ kind: 'hours', every: 6, minute: 0 }, '0 */6 * * *'],
  ];

  it.each(cases)('%o is the cron %s, and reads back as the same choice', (pick, cron) => {
    expect(pickToCron(pick)).toBe(cron);
    const back = cronToPick(cron);
    expect(pickToCron(back)).toBe(cron);
    expect(back.kind).toBe(pick.kind);
    // What croner (the service's reader) takes: every choice is a schedule it runs.
    expect(() => new Cron(cron, { paused: true })).not.toThrow();
  });

  it('reads equivalent crons as the plain choice', () => {
    expect(cronToPick('0 9 * * 1,2,3,4,5,6,0')).toEqual({ kind: 'daily', time: '09:00' });
    expect(cronToPick('0  9 * *   7')).toEqual({ kind: 'days', days: [0], time: '09:00' });
  });

  it('leaves what the picker cannot say as custom text', () => {
    for (const cron of [
      '0 9 1 * *',
      '0 9-17 * * *',
      '0 */5 * * *',
      '*/10 * * * *',
      '0 9 * * MON',
      'nonsense',
    ])
      expect(cronToPick(cron)).toEqual({ kind: 'custom', cron });
  });

  it('names the field in every problem, and finds none in a good choice', () => {
    expect(pickProblem({ kind: 'days', days: [], time: '09:00' })).toMatch(/^On: /);
    expect(pickProblem({ kind: 'daily', time: '' })).toMatch(/^At: /);
    expect(pickProblem({ kind: 'hours', every: 5, minute: 0 })).toMatch(/^Every: .*1, 2, 3, 4, 6, 8 and 12/);
    expect(pickProblem({ kind: 'custom', cron: '0 9 * *' })).toMatch(
      /^Schedule \(cron\): .*five parts.*has 4/,
    );
    expect(pickProblem({ kind: 'custom', cron: '0 99 * * *' })).toMatch(/^Schedule \(cron\): /);
    expect(pickProblem({ kind: 'custom', cron: '' })).toMatch(/^Schedule \(cron\): /);
    for (const [pick] of cases) expect(pickProblem(pick)).toBeNull();
    expect(pickProblem({ kind: 'custom', cron: '0 9 1 * *' })).toBeNull();
  });

  it('says schedules in words, on the chosen clock', () => {
    expect(scheduleInWords('0 9 * * 1-5', words12)).toBe('Every weekday at 9:00 AM');
    expect(scheduleInWords('0 9 * * *', words12)).toBe('Every day at 9:00 AM');
    expect(scheduleInWords('30 18 * * 1,3,5', words12)).toBe('Every Monday, Wednesday and Friday at 6:30 PM');
    expect(scheduleInWords('0 */6 * * *', words12)).toBe('Every 6 hours, on the hour');
    expect(scheduleInWords('15 * * * *', words12)).toBe('Every hour, at 15 past the hour');
    // Custom crons are read by cronstrue, whose clock follows the same choice.
    expect(scheduleInWords('0 14 1 * *', words12)).toMatch(/02:00 PM.*day 1 of the month/);
    expect(scheduleInWords('0 14 1 * *', words24)).toMatch(/14:00.*day 1 of the month/);
    expect(scheduleInWords('0 14 1 * *', words24)).not.toMatch(/PM/);
  });
});
