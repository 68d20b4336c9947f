import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { updateSettings } from '../../src-main/core/config/settings';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { TEST_AGENT, agentCommand, automation, cli, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const HOUR = 3_600_000;
const MIN = 60_000;

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('executor schedule against the sandbox', () => {
  it('an hourly automation over 24 simulated hours gives exactly 24 runs, each with its events', async () => {
    h = await startHarness({ automations: [automation()] });
    await h.executor.runOnce();
    expect((await h.sb.control.state()).runs).toEqual({});
    for (let i = 0; i < 24; i += 1) {
      await h.advance(HOUR);
      await h.executor.runOnce();
    }
    const state = await h.sb.control.state();
    expect(state.runs).toEqual({ completed: 24 });
    const runs = await h.runs();
    expect(runs).toHaveLength(24);
    const scheduled = runs.map((r) => r.scheduled_for).sort();
    expect(new Set(scheduled).size).toBe(24);
    expect(scheduled[0]).toBe('2030-01-01T13:00:00.000Z');
    expect(scheduled[23]).toBe('2030-01-02T12:00:00.000Z');
    for (const run of runs) {
      expect(run.idempotency_key).toBe(`${automation().id as string}:1:${run.scheduled_for}`);
      const steps = run.events.map((e) => `${e.step_id} ${e.status}`);
      // One event per step that ends within the hold (its start in the end's metadata), in the order the
      // steps ended; a step that ran longer was also shown started, before its end. `complete` is the
      // completion itself: no event.
      expect(steps.filter((s) => !s.endsWith(' started'))).toEqual([
        'prepare completed',
        'think completed',
        'render completed',
        'agent completed',
        'upload completed',
      ]);
      for (const s of steps.filter((x) => x.endsWith(' started'))) {
        const id = s.split(' ')[0] as string;
        expect(steps.indexOf(s)).toBeLessThan(steps.indexOf(`${id} completed`));
      }
      const ends = run.events.filter((e) => e.status === 'completed') as {
        step_id: string;
        metadata?: { started_at?: unknown } | null;
      }[];
      for (const e of ends) {
        if (!steps.includes(`${e.step_id} started`)) expect(typeof e.metadata?.started_at).toBe('string');
      }
    }
    const local = h.executor.journal.list({ limit: 100 });
    expect(local.filter((r) => r.state === 'completed')).toHaveLength(24);
    expect(local.every((r) => r.state === 'completed')).toBe(true);
  });

  it.each([
    ['latest', 1],
    ['skip', 0],
    ['all', 5],
  ] as const)(
    'after 5 h offline, policy "%s" runs %i of the missed occurrences and explains the rest',
    async (policy, ran) => {
      h = await startHarness();
      const { executor: ex, dataDir } = h.another({ missedRunPolicy: policy, graceMs: 2 * HOUR });
      await ex.runOnce();
      // The executor is not running while five hourly occurrences fall due.
      await h.advance(5 * HOUR + 10 * 60_000);
      await ex.runOnce();
      expect((await h.sb.control.state()).runs).toEqual(ran ? { completed: ran } : {});
      const rows = ex.journal.list();
      expect(rows).toHaveLength(5);
      const notRun = rows.filter((r) => r.state === 'not_run');
      expect(notRun).toHaveLength(5 - ran);
      for (const r of notRun) {
        expect(r.reason_code).toBe('executor_offline');
        expect(r.reason).toMatch(/^missed: the executor was not running at 2030-01-01T1\d:00:00\.000Z/);
      }
      if (policy === 'latest') {
        expect(rows.find((r) => r.state === 'completed')?.scheduled_for).toBe('2030-01-01T17:00:00.000Z');
      }
      if (policy === 'skip') {
        const listed = await cli(dataDir, ['runs', 'list']);
        expect(listed.code).toBe(0);
        expect(listed.stdout.match(/not_run/g)).toHaveLength(5);
        expect(listed.stdout).toContain('missed: the executor was not running');
        const shown = await cli(dataDir, ['runs', 'show', rows[0]?.id as string]);
        expect(shown.stdout).toMatch(
          /reason\s+executor_offline: missed: the executor was not running at 2030-01-01T17:00:00.000Z/,
        );
      }
    },
  );

  it('"latest" skips the newest missed occurrence too when it is older than the grace window', async () => {
    h = await startHarness();
    const ex = h.another({ missedRunPolicy: 'latest', graceMs: 15 * 60_000 }).executor;
    await ex.runOnce();
    await h.advance(3 * HOUR + 30 * 60_000);
    await ex.runMissed('the computer was asleep');
    expect((await h.sb.control.state()).runs).toEqual({});
    const rows = ex.journal.list();
    expect(rows.map((r) => r.reason)).toContain(
      'missed: the computer was asleep at 2030-01-01T15:00:00.000Z (30 min ago); policy "latest": older than the 15 min grace window',
    );
  });

  it('a paused executor records its occurrences as missed while paused when it resumes', async () => {
    h = await startHarness();
    const ex = h.another({ missedRunPolicy: 'skip' }).executor;
    await ex.runOnce();
    ex.pause();
    await h.advance(2 * HOUR + 5 * 60_000);
    await ex.runOnce();
    expect(ex.journal.list()).toHaveLength(0);
    ex.resume();
    await ex.runOnce();
    const rows = ex.journal.list();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.reason_code === 'executor_paused')).toBe(true);
  });

  it('an occurrence that falls due during a slow pass starts when the pass ends, on time though the pass outlasted the grace window', async () => {
    h = await startHarness({
      executor: { missedRunPolicy: 'latest', onTimeMs: MIN, graceMs: MIN, syncIntervalMs: MIN },
    });
    const ex = h.executor;
    const started: { at: string; scheduledFor: string | null; real: number }[] = [];
    ex.onDidStartRun((r) =>
      started.push({ at: h!.clock.now().toISOString(), scheduledFor: r.scheduledFor, real: Date.now() }),
    );
    ex.start();
    await waitFor(() => ex.nextSyncAt() !== null, 10_000, 'the first pass');
    await h.advance(59 * MIN + 50_000); // 12:59:50; the loop's sync-interval pass plans up to here
    await waitFor(() => ex.nextSyncAt() === '2030-01-01T13:00:00.000Z', 10_000, 'the pass at 12:59:50');

    await h.sb.control.faults({ latency_ms: 3000, paths: ['/api/agent/automations/sync'] });
    const asked = Date.now();
    ex.syncNow();
    await new Promise((r) => setTimeout(r, 1000));
    // While the pass waits for its sync, 13:00 falls due and the clock runs 5 min on: past the 1 min
    // on-time and grace windows. The virtual clock then stands still: only the pass ending can start it.
    await h.advance(5 * MIN);
    await waitFor(() => started.length > 0, 10_000, 'the 13:00 run to start');
    const passEnded = asked + 3000;
    await h.sb.control.faults({});
    expect(started[0]).toMatchObject({
      at: '2030-01-01T13:04:50.000Z',
      scheduledFor: '2030-01-01T13:00:00.000Z',
    });
    // Within a second of the pass's end (the sync's answer came 3 s after it was asked for).
    expect(started[0]!.real - passEnded).toBeLessThan(1000);
    await ex.idle();
    const rows = ex.journal.list();
    expect(rows.map((r) => [r.scheduled_for, r.state])).toEqual([['2030-01-01T13:00:00.000Z', 'completed']]);
    expect((await h.sb.control.state()).runs).toEqual({ completed: 1 });
  });

  it('stop() lets a run finish within the grace period, and fails one that does not, with the reason', async () => {
    h = await startHarness();
    const slow = h.another({ agent: agentCommand('--mode', 'slow', '--ms', '400') }).executor;
    await slow.runOnce();
    await h.advance(HOUR);
    await slow.tick();
    await slow.stop({ graceMs: 10_000 });
    expect(slow.journal.list()[0]?.state).toBe('completed');

    const stuck = h.another({ agent: agentCommand('--mode', 'hang') }).executor;
    await stuck.runOnce();
    await h.advance(HOUR);
    await stuck.tick();
    const until = Date.now() + scaled(5000);
    while (stuck.journal.list()[0]?.step !== 'agent' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    await stuck.stop({ graceMs: 300, reason: 'the executor received SIGTERM' });
    const row = stuck.journal.list()[0];
    expect(row?.state).toBe('failed');
    expect(row?.reason_code).toBe('executor_stopped');
    const [run] = await h.runs(stuck);
    expect(run?.state).toBe('failed');
    expect(run?.error).toBe(
      'agent was cancelled (the executor received SIGTERM and the run did not finish within the 300 ms grace period) and stopped with its process tree',
    );
  });

  it('`postdesk executor --once` does one sync-and-run pass on the sandbox clock and reports it', async () => {
    h = await startHarness();
    const dataDir = join(h.dir, 'cli');
    const store = openStore(storeFile(dataDir));
    updateSettings(store, {
      agentCommands: { 'test-agent': { command: process.execPath, args: [TEST_AGENT, '--mode', 'ok'] } },
    });
    store.close();
    const once = () =>
      cli(dataDir, ['--json', '--base-url', h!.sb.url, 'executor', '--once', '--sandbox-clock'], {
        POSTDESK_API_KEY: h!.sb.apiKey,
      });
    const first = await once();
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ executor: { state: 'stopped' }, runs: [] });
    await h.sb.control.advance(HOUR);
    const second = await once();
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout) as { runs: { state: string; scheduled_for: string }[] };
    expect(report.runs).toMatchObject([{ state: 'completed', scheduled_for: '2030-01-01T13:00:00.000Z' }]);
    expect(second.stdout).not.toContain(h.sb.apiKey);
    expect((await h.sb.control.state()).runs).toEqual({ completed: 1 });
  });

  it('records "no targets" and "revision not acked" for occurrences that could not run', async () => {
    h = await startHarness({ automations: [automation({ targets: [] })] });
    const ex = h.another().executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    expect(ex.journal.list()[0]).toMatchObject({ state: 'not_run', reason_code: 'no_targets' });

    // A new revision whose ack the service keeps refusing (503 on the ack path).
    const { id: _id, ...body } = automation({ instructions: 'revision 2' });
    await h.sb.control.putAutomation(_id as string, body);
    await h.sb.control.faults({ error_rate: 1, paths: [`/api/agent/automations/${_id as string}/ack`] });
    await h.advance(HOUR);
    await ex.runOnce();
    const row = ex.journal.list()[0];
    expect(row).toMatchObject({ state: 'not_run', reason_code: 'revision_not_acked' });
    expect(row?.reason).toMatch(/^revision 2 could not be acknowledged: SANDBOX_FAULT: .*503/);
    expect((await h.sb.control.state()).runs).toEqual({});
  });
});
