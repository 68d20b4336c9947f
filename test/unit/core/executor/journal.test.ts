import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type NewRun } from '../../../../src-main/core/executor/journal';
import { openStore, type Store } from '../../../../src-main/core/store/store';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fileStore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(dir);
  return join(dir, 'postdesk.db');
}
const open = (file: string) => {
  const s = openStore(file);
  stores.push(s);
  return s;
};

const occurrence = (at: string, over: Partial<NewRun> = {}): NewRun => ({
  automationId: 'auto-1',
  automationName: 'Daily',
  queue: 'local',
  scheduledFor: at,
  revision: 1,
  state: 'queued',
  idempotencyKey: `auto-1:1:${at}`,
  ...over,
});

describe('executor journal (a real SQLite file)', () => {
  it('records each occurrence once, even when two processes sharing the store decide it', () => {
    const file = fileStore();
    const a = new Journal(open(file), 'https://svc.test');
    const decidedAt = '2030-01-01T10:00:05.000Z';
    const b = new Journal(open(file), 'https://svc.test', () => decidedAt);
    a.saveAutomation('auto-1', 1, { id: 'auto-1' });
    const first = a.recordOccurrences('auto-1', '2030-01-01T10:00:00.000Z', [
      occurrence('2030-01-01T10:00:00.000Z'),
    ]);
    const second = b.recordOccurrences('auto-1', '2030-01-01T10:00:00.000Z', [
      occurrence('2030-01-01T10:00:00.000Z'),
      occurrence('2030-01-01T09:00:00.000Z', {
        state: 'not_run',
        reasonCode: 'executor_offline',
        reason: 'missed',
      }),
    ]);
    expect(first).toHaveLength(1);
    expect(second.map((r) => r.scheduled_for)).toEqual(['2030-01-01T09:00:00.000Z']);
    expect(a.list()).toHaveLength(2);
    expect(a.automation('auto-1')?.cursor).toBe('2030-01-01T10:00:00.000Z');
    // A missed occurrence is over as soon as it is recorded.
    expect(a.list().find((r) => r.state === 'not_run')).toMatchObject({
      scheduled_for: '2030-01-01T09:00:00.000Z',
      reason_code: 'executor_offline',
      created_at: decidedAt,
      finished_at: decidedAt,
    });
  });

  it('keeps scopes apart, and the null scope reads them all', () => {
    const store = open(fileStore());
    const real = new Journal(store, 'https://svc.test');
    const sandbox = new Journal(store, 'sandbox');
    real.insert(occurrence('2030-01-01T10:00:00.000Z'));
    sandbox.insert(occurrence('2030-01-01T10:00:00.000Z'));
    real.saveIdentity('exec-1', 'laptop', 'claude');
    expect(real.list()).toHaveLength(1);
    expect(sandbox.identity()).toBeUndefined();
    expect(real.identity()).toEqual({ executorId: 'exec-1', name: 'laptop', agentType: 'claude' });
    expect(new Journal(store, null).list()).toHaveLength(2);
  });

  it('updates a run, sets finished_at on a final state, keeps its steps in order, finds it by a prefix', () => {
    const j = new Journal(open(fileStore()), 's');
    const row = j.insert(occurrence('2030-01-01T10:00:00.000Z'))!;
    j.update(row.id, { state: 'running', run_id: 'run-abc-123' });
    j.addStep(row.id, 'prepare', 'started', null, 'executor');
    j.addStep(row.id, 'think', 'info', 'hmm', 'agent');
    const done = j.update(row.id, { state: 'failed', reason_code: 'agent_failed', reason: 'exit 3' });
    expect(done.finished_at).not.toBeNull();
    expect(j.steps(row.id).map((s) => `${s.step_id}/${s.source}`)).toEqual([
      'prepare/executor',
      'think/agent',
    ]);
    expect(j.find('run-abc')?.id).toBe(row.id);
    expect(j.find(row.id.slice(0, 8))?.id).toBe(row.id);
    expect(j.unfinished()).toHaveLength(0);
  });

  it('adopts a run left by a dead process, never one a live process holds', () => {
    const j = new Journal(open(fileStore()), 's');
    const row = j.insert(occurrence('2030-01-01T10:00:00.000Z'))!;
    j.update(row.id, { owner_pid: 999_999 });
    expect(j.adopt(row.id, () => true)).toBe(false);
    expect(j.adopt(row.id, () => false)).toBe(true);
    expect(j.get(row.id)?.owner_pid).toBe(process.pid);
  });
});
