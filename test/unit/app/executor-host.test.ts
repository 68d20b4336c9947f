import { describe, expect, it } from 'vitest';
import {
  ExecutorHost,
  failedRunOf,
  missedRunOf,
  type HostedExecutor,
} from '../../../src-main/app/executor-host';
import type { FailedRun, MissedRun } from '../../../src-main/app/capabilities';
import { Emitter } from '../../../src-main/core/common/events';
import type { ExecutorStatus, RunFailedEvent, RunInfo } from '../../../src-main/core/executor';
import { MemoryLog } from '../../helpers/shell-fakes';

const run = (over: Partial<RunInfo> = {}): RunInfo => ({
  id: 'run-1',
  name: 'Morning post',
  localId: 'loc-1',
  runId: 'run-1',
  automationId: 'auto-1',
  automationName: 'Morning post',
  scheduledFor: '2025-03-01T08:00:00.000Z',
  queue: 'local',
  state: 'running',
  step: null,
  ...over,
});

/** The slice of the core's Executor the host drives, recording what it is asked. */
function stubExecutor() {
  const state = new Emitter<ExecutorStatus>();
  const failed = new Emitter<RunFailedEvent>();
  const missed = new Emitter<RunFailedEvent>();
  const calls: string[] = [];
  let paused = false;
  const runs: RunInfo[] = [];
  const ex: HostedExecutor = {
    start: () => void calls.push('start'),
    pause: () => {
      paused = true;
      calls.push('pause');
    },
    resume: () => {
      paused = false;
      calls.push('resume');
    },
    isPaused: () => paused,
    runMissed: async (r) => void calls.push(`runMissed:${r}`),
    state: () => (paused ? 'paused' : runs.length ? 'running' : 'idle'),
    activeRuns: () => runs,
    lastError: () => null,
    stop: async (o) => void calls.push(`stop:${o?.reason}`),
    failRun: async (id, reason) => void calls.push(`failRun:${id}:${reason}`),
    onDidChangeState: state.event,
    onDidFailRun: failed.event,
    onDidMissRun: missed.event,
  };
  return { ex, calls, runs, state, failed, missed };
}

describe('ExecutorHost', () => {
  it('reports stopped without an executor, and follows the current one', async () => {
    const host = new ExecutorHost(new MemoryLog());
    expect(host.state()).toBe('stopped');
    const a = stubExecutor();
    await host.use(a.ex);
    expect(a.calls).toEqual(['start']);
    a.runs.push(run());
    expect(host.state()).toBe('running');
    expect(host.activeRuns()).toEqual([{ id: 'run-1', name: 'Morning post' }]);
  });

  it('stops the old executor when the connection changes, and keeps a user pause across the swap', async () => {
    const host = new ExecutorHost(new MemoryLog());
    const a = stubExecutor();
    const b = stubExecutor();
    await host.use(a.ex);
    host.pause();
    await host.use(b.ex);
    expect(a.calls).toEqual(['start', 'pause', 'stop:the connection changed']);
    expect(b.calls).toEqual(['pause', 'start']);
    expect(host.isPaused()).toBe(true);
    let changes = 0;
    host.onDidChangeState(() => (changes += 1));
    a.state.fire({} as ExecutorStatus);
    expect(changes).toBe(0);
    b.state.fire({} as ExecutorStatus);
    expect(changes).toBe(1);
  });

  it('passes failed and missed runs on in the shell’s terms', async () => {
    const host = new ExecutorHost(new MemoryLog());
    const a = stubExecutor();
    await host.use(a.ex);
    const failed: FailedRun[] = [];
    const missed: MissedRun[] = [];
    host.onDidFailRun((f) => failed.push(f));
    host.onDidMissRun((m) => missed.push(m));
    const event = (over: Partial<RunFailedEvent>): RunFailedEvent => ({
      ...run(),
      code: 'agent_failed' as RunFailedEvent['code'],
      message: 'agent exited 2',
      error: 'agent exited 2',
      ...over,
    });
    a.failed.fire(event({}));
    a.missed.fire(event({ id: 'loc-9', runId: null, message: 'the computer was asleep' }));
    expect(failed).toEqual([{ runId: 'run-1', automationName: 'Morning post', error: 'agent exited 2' }]);
    expect(missed).toEqual([
      {
        automationId: 'auto-1',
        automationName: 'Morning post',
        scheduledFor: '2025-03-01T08:00:00.000Z',
        runId: null,
        reason: 'the computer was asleep',
      },
    ]);
    expect(failedRunOf(event({})).runId).toBe('run-1');
    expect(missedRunOf(event({})).runId).toBe('run-1');
  });

  it('once stopped for quitting, starts no new executor', async () => {
    const host = new ExecutorHost(new MemoryLog());
    const a = stubExecutor();
    await host.use(a.ex);
    await host.stop({ graceMs: 10, reason: 'Postdesk quit' });
    const b = stubExecutor();
    await host.use(b.ex);
    expect(a.calls).toContain('stop:Postdesk quit');
    expect(b.calls).toEqual([]);
    expect(host.state()).toBe('stopped');
  });
});
