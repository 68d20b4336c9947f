import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  daemonStateFile,
  readDaemonState,
  writeDaemonState,
  type DaemonState,
} from '../../../../src-main/core/executor/daemon-state';

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
