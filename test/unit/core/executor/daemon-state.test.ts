import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  daemonStateFile,
  keepDaemonState,
  readDaemonState,
  writeDaemonState,
  type DaemonState,
} from '../../../../src-main/core/executor/daemon-state';
import type { Executor } from '../../../../src-main/core/executor/executor';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const state = (over: Partial<DaemonState> = {}): DaemonState => ({
  pid: process.pid,
  state: 'registering',
  name: 'laptop',
  executor_id: null,
  last_sync_at: null,
  next_occurrence_at: null,
  last_error: null,
  active_runs: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('the daemon state file', () => {
  it('is written 0600 in a 0700 folder, replaced whole, and read back as live while its process lives', () => {
    const root = mkdtempSync(join(tmpdir(), 'daemon-state-'));
    dirs.push(root);
    const file = daemonStateFile(join(root, 'executor'));
    writeDaemonState(file, state());
    writeDaemonState(file, state({ state: 'idle', executor_id: 'ex_1' }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'executor')).mode & 0o777).toBe(0o700);
    // The temp files were renamed over it: only the state file is there.
    expect(readdirSync(join(root, 'executor'))).toEqual(['daemon.json']);
    expect(readDaemonState(file)).toEqual({
      kind: 'live',
      state: state({ state: 'idle', executor_id: 'ex_1' }),
    });
  });

  it('is stale when its process has exited, absent when there is none, unreadable when it is not one', () => {
    const root = mkdtempSync(join(tmpdir(), 'daemon-state-'));
    dirs.push(root);
    const file = join(root, 'daemon.json');
    expect(readDaemonState(file)).toEqual({ kind: 'none' });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
    writeDaemonState(file, state({ pid: gone }));
    expect(readDaemonState(file)).toMatchObject({ kind: 'stale', state: { pid: gone } });
    writeFileSync(file, '{"pid": "x"}');
    expect(readDaemonState(file)).toMatchObject({ kind: 'unreadable' });
  });
});

describe('keeping the daemon state file', () => {
  /**
   * Only what keepDaemonState reads of an executor, with a count of how often the next occurrence
   * is computed: every computation builds ICU formatters outside V8's heap, which an idle daemon's rare GCs left
   * resident (about 6 MiB a minute when it was computed every second).
   */
  function fakeExecutor(nextAt: () => string | null) {
    const status = {
      state: 'idle',
      executorId: 'ex_1',
      lastSyncAt: '2030-01-01T00:00:00.000Z',
      lastError: null,
      activeRuns: 0,
    };
    let computed = 0;
    const executor = {
      name: 'laptop',
      status: () => ({ ...status }),
      nextSyncAt: () => '2030-01-01T00:01:00.000Z',
      nextOccurrenceAt: () => {
        computed++;
        return nextAt();
      },
      onDidChangeState: () => ({ dispose: () => undefined }),
    } as unknown as Executor;
    return { executor, status, computed: () => computed };
  }

  it('computes the next occurrence again only after a pass changed what the executor knows, or once it passed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'daemon-state-'));
    dirs.push(root);
    const file = join(root, 'daemon.json');
    let at = new Date(Date.now() + 3_600_000).toISOString();
    const f = fakeExecutor(() => at);
    const kept = keepDaemonState(f.executor, file, { everyMs: 5 });
    try {
      await sleep(100);
      expect(f.computed()).toBe(1);
      // A sync: the automations may have changed, so the next occurrence is computed again and written.
      at = new Date(Date.now() + 7_200_000).toISOString();
      f.status.lastSyncAt = '2030-01-01T00:01:00.000Z';
      await sleep(100);
      expect(f.computed()).toBe(2);
      expect(readDaemonState(file)).toMatchObject({ kind: 'live', state: { next_occurrence_at: at } });
      // An occurrence that has passed is never shown as the next one.
      at = new Date(Date.now() - 1000).toISOString();
      f.status.lastSyncAt = '2030-01-01T00:02:00.000Z';
      await sleep(100);
      expect(f.computed()).toBeGreaterThan(3);
    } finally {
      kept.stop();
    }
  });
});
