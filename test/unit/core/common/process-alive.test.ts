import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../../src-main/core/common/process-alive';

describe('isProcessAlive', () => {
  it('is true for this process and for one of another user (pid 1)', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    // init belongs to root: signal 0 answers EPERM to everyone else, which still means "exists".
    expect(isProcessAlive(1)).toBe(true);
  });

  it('is false for a process that has exited', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    expect(gone).toBeGreaterThan(0);
    expect(isProcessAlive(gone as number)).toBe(false);
  });

  it('is false for what cannot be a process id (never signals a process group)', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isProcessAlive(pid)).toBe(false);
    }
  });
});
