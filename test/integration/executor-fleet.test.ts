/**
 * Several executors on several machines for one account (docs/executor.md): three executors, each with
 * its own store and data directory, decide the same occurrences at the same time. The service's
 * idempotency keys give each occurrence one run; the others record it as another executor's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { automation, startHarness, type Harness } from './executor-harness';

const MINUTE = 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('three executors for one account', () => {
  it('30 occurrences give exactly 30 runs, each started and completed once, whichever machine ran it', async () => {
    h = await startHarness();
    const { id, ...body } = automation({
      name: 'Every minute',
      schedule: { cron: '* * * * *', timezone: 'UTC' },
    });
    await h.sb.control.putAutomation(id as string, body);
    const machines = [1, 2, 3].map(
      () => (h as Harness).another({ concurrency: 3, missedRunPolicy: 'all' }).executor,
    );
    await Promise.all(machines.map((m) => m.runOnce()));
    for (let i = 0; i < 10; i += 1) {
      await h.advance(3 * MINUTE);
      // Machines wake at different moments: this round's first one starts the three occurrences that fell
      // due, and the other two, deciding them at once, find them taken.
      const [first, ...rest] = [...machines.slice(i % 3), ...machines.slice(0, i % 3)];
      const lead = first?.runOnce();
      await new Promise((r) => setTimeout(r, 0));
      await Promise.all([lead, ...rest.map((m) => m.runOnce())]);
    }
    const state = await h.sb.control.state();
    expect(state.runs).toEqual({ completed: 30 });
    expect(state.deliveries).toEqual({ draft: 30 });

    const rows = machines.flatMap((m) => m.journal.list({ limit: 1000 }));
    const completed = rows.filter((r) => r.state === 'completed');
    expect(completed).toHaveLength(30);
    expect(new Set(completed.map((r) => r.scheduled_for)).size).toBe(30);
    expect(new Set(completed.map((r) => r.run_id)).size).toBe(30);
    // Every machine decided every occurrence: the two that did not run it say whose it was.
    const others = rows.filter((r) => r.state === 'not_run');
    expect(others).toHaveLength(60);
    expect(others.every((r) => r.reason_code === 'other_executor')).toBe(true);
    for (const m of machines) expect(m.journal.list({ limit: 1000 })).toHaveLength(30);
    const share = machines.map((m) => m.journal.list({ limit: 1000, states: ['completed'] }).length);
    expect(
      share.every((n) => n > 0),
      `runs per machine: ${share.join(', ')}`,
    ).toBe(true);
    // Each run belongs to the executor that started it.
    for (const m of machines) {
      const executorId = m.status().executorId as string;
      for (const row of m.journal.list({ limit: 1000, states: ['completed'] })) {
        const res = await h.sb.api('GET', `/api/agent/runs/${row.run_id}?executor_id=${executorId}`);
        expect((res.body as { run: { executor_id: string } }).run.executor_id).toBe(executorId);
      }
    }
  });
});
