import { describe, expect, it } from 'vitest';
import type { Automation } from '../../../../src-shared/api';
import { createManualClock } from '../../../../src-main/core/executor/clock';
import type { NewRun } from '../../../../src-main/core/executor/journal';
import {
  afterRestart,
  missedContext,
  nextWake,
  planAutomation,
  runNowRow,
  type AutomationPlan,
  type MissedContext,
  type PlanPolicy,
  type SavedAutomation,
} from '../../../../src-main/core/executor/occurrence-planner';

const MIN = 60_000;
const HOUR = 60 * MIN;
const START = new Date('2030-01-01T12:00:00.000Z');

const automation = (over: Partial<Automation> = {}): Automation => ({
  id: 'auto-1',
  name: 'Hourly post',
  status: 'active',
  execution_mode: 'draft',
  queue: 'local',
  schedule: { cron: '0 * * * *', timezone: 'UTC' },
  instructions: 'Post something.',
  targets: [{ social_account_id: '00000000-0000-4000-8000-000000000001', platform: 'instagram' }],
  revision: 3,
  acked_revision: 3,
  ...over,
});

const POLICY: PlanPolicy = { missedRunPolicy: 'latest', onTimeMs: 2 * MIN, graceMs: 15 * MIN };
const OFFLINE: MissedContext = { code: 'executor_offline', because: 'the executor was offline or asleep' };

/**
 * The executor's passes without the executor: a manual clock, and the journal's memory of one automation
 * (its cursor and acknowledged revision) carried from one pass to the next.
 */
function passes(a: Automation, policy: PlanPolicy = POLICY) {
  const clock = createManualClock(START);
  let saved: SavedAutomation | undefined;
  return {
    clock,
    pass(missed: MissedContext = OFFLINE, busySince?: Date): AutomationPlan {
      const plan = planAutomation(a, saved, clock.now(), policy, missed, busySince);
      if (plan.kind === 'record')
        saved = { cursor: plan.cursor, acked_revision: saved?.acked_revision ?? null, ack_error: null };
      return plan;
    },
  };
}

const rows = (plan: AutomationPlan): readonly NewRun[] => {
  if (plan.kind !== 'record') throw new Error(`expected rows, got ${plan.kind}`);
  return plan.rows;
};
const brief = (plan: AutomationPlan) =>
  rows(plan).map((r) => [r.scheduledFor, r.state, r.reasonCode ?? null] as const);

describe('the occurrence planner', () => {
  it('starts counting at first sight: earlier occurrences were never this executor’s to run', () => {
    const p = passes(automation());
    expect(p.pass()).toEqual({ kind: 'record', cursor: START.toISOString(), rows: [] });
    // Same instant again: the cursor is not behind now, so there is nothing to decide.
    expect(p.pass()).toEqual({ kind: 'none' });
  });

  it('queues each on-time occurrence with its idempotency key as the clock moves', () => {
    const a = automation();
    const p = passes(a);
    p.pass();
    for (let hour = 13; hour <= 15; hour += 1) {
      p.clock.advance(HOUR);
      const at = `2030-01-01T${hour}:00:00.000Z`;
      expect(rows(p.pass())).toEqual([
        {
          automationId: 'auto-1',
          automationName: 'Hourly post',
          queue: 'local',
          revision: 3,
          scheduledFor: at,
          state: 'queued',
          idempotencyKey: `auto-1:3:${at}`,
        },
      ]);
    }
  });

  it('under "latest", runs only the newest missed occurrence within the grace window and says why of the rest', () => {
    const p = passes(automation());
    p.pass();
    p.clock.advance(4 * HOUR + 10 * MIN); // 16:10: 13, 14, 15 and 16 fell due while nothing watched
    const plan = p.pass();
    expect(brief(plan)).toEqual([
      ['2030-01-01T13:00:00.000Z', 'not_run', 'executor_offline'],
      ['2030-01-01T14:00:00.000Z', 'not_run', 'executor_offline'],
      ['2030-01-01T15:00:00.000Z', 'not_run', 'executor_offline'],
      ['2030-01-01T16:00:00.000Z', 'queued', null],
    ]);
    expect(rows(plan)[0]?.reason).toBe(
      'missed: the executor was offline or asleep at 2030-01-01T13:00:00.000Z (3 h ago); ' +
        'policy "latest" runs only the newest missed occurrence',
    );
  });

  it('under "latest", skips even the newest missed occurrence once it is past the grace window', () => {
    const p = passes(automation());
    p.pass();
    p.clock.advance(HOUR + 20 * MIN); // 13:20: 20 minutes late, the window is 15
    const [row] = rows(p.pass());
    expect(row).toMatchObject({ scheduledFor: '2030-01-01T13:00:00.000Z', state: 'not_run' });
    expect(row?.reason).toMatch(/policy "latest": older than the 15 min grace window$/);
  });

  it('runs an occurrence that fell due during a slow pass, however much longer than the grace window it took', () => {
    const slow = passes(automation());
    const absent = passes(automation());
    for (const p of [slow, absent]) {
      p.pass();
      p.clock.set(new Date('2030-01-01T12:59:59.000Z'));
      p.pass(); // the pass plans up to 12:59:59, then its sync hangs for 21 minutes
      p.clock.set(new Date('2030-01-01T13:21:00.000Z'));
    }
    const busySince = new Date('2030-01-01T12:59:59.000Z');
    expect(brief(slow.pass(OFFLINE, busySince))).toEqual([['2030-01-01T13:00:00.000Z', 'queued', null]]);
    // The same 21 minutes spent away (not in a pass) is a missed occurrence past the 15 min window.
    expect(brief(absent.pass())).toEqual([['2030-01-01T13:00:00.000Z', 'not_run', 'executor_offline']]);
  });

  it('still applies the policy to what fell due before the pass began', () => {
    const p = passes(automation(), { ...POLICY, missedRunPolicy: 'skip' });
    p.pass();
    p.clock.set(new Date('2030-01-01T14:30:00.000Z')); // 13:00 and 14:00 fell due while away
    const busySince = new Date('2030-01-01T14:30:00.000Z');
    p.pass(OFFLINE, busySince);
    p.clock.set(new Date('2030-01-01T15:20:00.000Z')); // a 50 min pass; 15:00 fell due during it
    expect(brief(p.pass(OFFLINE, busySince))).toEqual([['2030-01-01T15:00:00.000Z', 'queued', null]]);
  });

  it('under "skip", runs no missed occurrence; under "all", runs every one', () => {
    const skip = passes(automation(), { ...POLICY, missedRunPolicy: 'skip' });
    const all = passes(automation(), { ...POLICY, missedRunPolicy: 'all' });
    for (const p of [skip, all]) {
      p.pass();
      p.clock.advance(3 * HOUR + 5 * MIN);
    }
    expect(brief(skip.pass()).map(([, state]) => state)).toEqual(['not_run', 'not_run', 'not_run']);
    expect(brief(all.pass()).map(([, state]) => state)).toEqual(['queued', 'queued', 'queued']);
  });

  it('names the reason it was given (paused, asleep) on the occurrences it does not run', () => {
    const p = passes(automation(), { ...POLICY, missedRunPolicy: 'skip' });
    p.pass();
    p.clock.advance(HOUR + 30 * MIN);
    const [row] = rows(p.pass({ code: 'executor_paused', because: 'the executor was paused' }));
    expect(row).toMatchObject({ reasonCode: 'executor_paused' });
    expect(row?.reason).toMatch(/^missed: the executor was paused at 2030-01-01T13:00:00\.000Z/);
  });

  it('records paused, targetless and unacknowledged automations as not run, and a removed one not at all', () => {
    const cursor = START.toISOString();
    const now = new Date(START.getTime() + HOUR);
    const saved: SavedAutomation = { cursor, acked_revision: 3, ack_error: null };
    const plan = (a: Automation, s: SavedAutomation = saved) => planAutomation(a, s, now, POLICY, OFFLINE);

    expect(rows(plan(automation({ status: 'paused' })))).toMatchObject([
      { state: 'not_run', reasonCode: 'automation_paused', reason: 'the automation is paused' },
    ]);
    expect(rows(plan(automation({ targets: [] })))).toMatchObject([
      { state: 'not_run', reasonCode: 'no_targets' },
    ]);
    const unacked = automation({ revision: 4, acked_revision: 3 });
    expect(rows(plan(unacked, { ...saved, ack_error: 'REVISION_STALE: stale' }))).toMatchObject([
      {
        state: 'not_run',
        reasonCode: 'revision_not_acked',
        reason: 'revision 4 could not be acknowledged: REVISION_STALE: stale',
      },
    ]);
    expect(plan(automation({ status: 'removed' }))).toEqual({
      kind: 'record',
      cursor: now.toISOString(),
      rows: [],
    });
  });

  it('moves past an invalid schedule and says what is wrong with it', () => {
    const a = automation({ schedule: { cron: 'every day', timezone: 'UTC' } });
    const now = new Date(START.getTime() + HOUR);
    const plan = planAutomation(
      a,
      { cursor: START.toISOString(), acked_revision: 3, ack_error: null },
      now,
      POLICY,
      OFFLINE,
    );
    expect(plan).toMatchObject({ kind: 'record', cursor: now.toISOString(), rows: [] });
    expect(plan.kind === 'record' && plan.problem).toMatch(
      /^automation Hourly post: invalid schedule every day \(UTC\): /,
    );
  });

  it('gives a run-now occurrence a key of its own instant', () => {
    expect(runNowRow(automation(), START)).toEqual({
      automationId: 'auto-1',
      automationName: 'Hourly post',
      queue: 'local',
      scheduledFor: START.toISOString(),
      revision: 3,
      state: 'queued',
      idempotencyKey: `auto-1:3:${START.toISOString()}`,
    });
  });
});

describe('why occurrences were missed', () => {
  it('prefers the reason it was given, else tells from whether the loop was watching', () => {
    const paused: MissedContext = { code: 'executor_paused', because: 'the executor was paused' };
    expect(missedContext(paused, { running: true, passes: 9 })).toBe(paused);
    expect(missedContext(null, { running: false, passes: 0 }).because).toBe('the executor was not running');
    expect(missedContext(null, { running: true, passes: 1 }).because).toBe('the executor was not running');
    expect(missedContext(null, { running: true, passes: 2 })).toEqual(OFFLINE);
  });
});

describe('the next wake', () => {
  it('is the next occurrence of an active local automation when that comes before the sync interval', () => {
    const clock = createManualClock(new Date('2030-01-01T12:50:00.000Z'));
    const hourly = automation();
    const quarter = automation({ id: 'auto-2', schedule: { cron: '*/15 * * * *', timezone: 'UTC' } });
    const now = clock.now();
    expect(new Date(nextWake([hourly], now, HOUR)).toISOString()).toBe('2030-01-01T13:00:00.000Z');
    expect(new Date(nextWake([hourly, quarter], now, HOUR)).toISOString()).toBe('2030-01-01T13:00:00.000Z');
    clock.advance(11 * MIN); // 13:01
    expect(new Date(nextWake([hourly, quarter], clock.now(), HOUR)).toISOString()).toBe(
      '2030-01-01T13:15:00.000Z',
    );
  });

  it('is now (go again at once) when an occurrence fell due after the instant the last pass planned up to', () => {
    const planned = new Date('2030-01-01T12:59:59.000Z');
    const now = new Date('2030-01-01T13:00:03.000Z'); // the pass ended 4 s later, past 13:00
    expect(new Date(nextWake([automation()], now, HOUR, planned)).toISOString()).toBe(
      '2030-01-01T13:00:00.000Z',
    );
    // Looking only after the clock's now, as before, waits for the next occurrence: an hour late.
    expect(new Date(nextWake([automation()], now, HOUR)).toISOString()).toBe('2030-01-01T14:00:00.000Z');
  });

  it('ignores legacy, paused and invalid automations and falls back to the sync interval', () => {
    const now = new Date('2030-01-01T12:50:00.000Z');
    const others = [
      automation({ queue: 'legacy' }),
      automation({ status: 'paused' }),
      automation({ schedule: { cron: 'nonsense', timezone: 'UTC' } }),
    ];
    expect(nextWake(others, now, 5 * MIN)).toBe(now.getTime() + 5 * MIN);
  });
});

describe('after a restart', () => {
  const now = new Date('2030-01-01T13:10:00.000Z');
  const queued = { state: 'queued' as const, run_id: null, scheduled_for: '2030-01-01T13:00:00.000Z' };

  it('runs a queued occurrence still within the grace window (or under "all") and expires a later one', () => {
    expect(afterRestart(queued, now, POLICY)).toBe('requeue');
    const old = { ...queued, scheduled_for: '2030-01-01T12:00:00.000Z' };
    expect(afterRestart(old, now, POLICY)).toBe('expire');
    expect(afterRestart(old, now, { ...POLICY, missedRunPolicy: 'all' })).toBe('requeue');
  });

  it('starts again a start that got no run id, and resumes anything further along', () => {
    expect(afterRestart({ ...queued, state: 'starting' }, now, POLICY)).toBe('requeue');
    expect(afterRestart({ ...queued, state: 'starting', run_id: 'run-1' }, now, POLICY)).toBe('resume');
    expect(afterRestart({ ...queued, state: 'uploading', run_id: 'run-1' }, now, POLICY)).toBe('resume');
  });
});
