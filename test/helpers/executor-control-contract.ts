/**
 * The behaviour of `ExecutorControl` the shell relies on, as one suite. It runs against the fake the shell
 * tests use (test/unit/app/fake-executor-contract.test.ts) and against the real ExecutorHost over a real
 * Executor on the sandbox (test/integration/executor-host-contract.test.ts): a case the fake passes and
 * the real one fails means the shell tests prove something untrue.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ExecutorControl, FailedRun } from '../../src-main/app/capabilities';
import { until } from './shell-fakes';

export interface ExecutorSubject {
  readonly control: ExecutorControl;
  /** Starts a run that goes on until `release`; resolves with its id once it is under way. */
  startRun(): Promise<string>;
  /** Lets the runs in flight end: as completed, or as failed by their agent with `fail`. */
  release(o?: Readonly<{ fail?: boolean }>): Promise<void>;
  close(): Promise<void>;
}

/** `make` resolves with a subject that is started and settled: idle, not paused, nothing in flight. */
export function executorControlContract(
  make: () => Promise<ExecutorSubject>,
  o: Readonly<{ timeoutMs?: number }> = {},
): void {
  const timeoutMs = o.timeoutMs ?? 5_000;
  let s: ExecutorSubject;
  let changes = 0;
  let failed: FailedRun[] = [];

  beforeEach(async () => {
    s = await make();
    changes = 0;
    failed = [];
    s.control.onDidChangeState(() => (changes += 1));
    s.control.onDidFailRun((f) => failed.push(f));
  });
  afterEach(async () => {
    await s.release();
    await s.close();
  });

  const settle = (predicate: () => boolean, what: string) => until(predicate, what, timeoutMs);

  it('is idle with nothing to do, and pauses and resumes with a change each time', async () => {
    expect(s.control.state()).toBe('idle');
    expect(s.control.isPaused()).toBe(false);
    expect(s.control.activeRuns()).toEqual([]);

    s.control.pause();
    expect(s.control.isPaused()).toBe(true);
    expect(s.control.state()).toBe('paused');
    expect(changes).toBeGreaterThan(0);

    const before = changes;
    s.control.resume();
    expect(s.control.isPaused()).toBe(false);
    expect(s.control.state()).toBe('idle');
    expect(changes).toBeGreaterThan(before);
  });

  it('is running while a run is in flight, lists it, and is idle again once it ends', async () => {
    const id = await s.startRun();
    expect(s.control.state()).toBe('running');
    expect(s.control.activeRuns().map((r) => r.id)).toEqual([id]);
    expect(s.control.activeRuns()[0]?.name).toEqual(expect.any(String));
    const whileRunning = changes;
    expect(whileRunning).toBeGreaterThan(0);

    await s.release();
    await settle(() => s.control.state() === 'idle', 'idle after the run');
    expect(s.control.activeRuns()).toEqual([]);
    expect(changes).toBeGreaterThan(whileRunning);
    expect(failed).toEqual([]);
  });

  it('shows paused over a run in flight, which goes on and is still listed', async () => {
    const id = await s.startRun();
    s.control.pause();
    expect(s.control.state()).toBe('paused');
    expect(s.control.activeRuns().map((r) => r.id)).toEqual([id]);
    await s.release();
    await settle(() => s.control.activeRuns().length === 0, 'the run ending while paused');
    expect(s.control.state()).toBe('paused');
  });

  it('is stopped after stop, with a change', async () => {
    const before = changes;
    await s.control.stop({ graceMs: 1_000, reason: 'Postdesk quit' });
    expect(s.control.state()).toBe('stopped');
    expect(changes).toBeGreaterThan(before);
  });

  it('stop waits for a run in flight within the grace, showing it running until it ends', async () => {
    const id = await s.startRun();
    let stopped = false;
    const stopping = s.control
      .stop({ graceMs: 30_000, reason: 'Postdesk quit' })
      .then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(stopped).toBe(false);
    expect(s.control.state()).toBe('running');
    expect(s.control.activeRuns().map((r) => r.id)).toEqual([id]);

    await s.release();
    await stopping;
    expect(s.control.state()).toBe('stopped');
    expect(s.control.activeRuns()).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('stop ends a run that outlives the grace, which fails with the stop’s reason', async () => {
    const id = await s.startRun();
    const began = Date.now();
    await s.control.stop({ graceMs: 200, reason: 'Postdesk quit' });
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
    expect(s.control.activeRuns()).toEqual([]);
    expect(s.control.state()).toBe('stopped');
    await settle(() => failed.length > 0, 'the failed run');
    expect(failed.map((f) => f.runId)).toEqual([id]);
    expect(failed[0]?.error).toContain('Postdesk quit');
  });

  it('failRun ends a run in flight, which fails with that reason', async () => {
    const id = await s.startRun();
    await s.control.failRun(id, 'Postdesk quit and the work did not finish');
    await settle(() => s.control.activeRuns().length === 0, 'the failed run ending');
    expect(s.control.state()).toBe('idle');
    await settle(() => failed.length > 0, 'the failure event');
    expect(failed.map((f) => f.runId)).toEqual([id]);
    expect(failed[0]?.error).toContain('Postdesk quit and the work did not finish');
  });

  it('reports a run whose agent failed through onDidFailRun', async () => {
    const id = await s.startRun();
    await s.release({ fail: true });
    await settle(() => failed.length > 0, 'the failure event');
    expect(failed.map((f) => f.runId)).toEqual([id]);
    expect(failed[0]?.error).not.toBe('');
    await settle(() => s.control.state() === 'idle', 'idle after the failed run');
  });
}
