import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCommand, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A process is gone when signalling it fails, or when only its zombie is left for init to reap. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function oneRun(harness: Harness, agentArgs: string[], extra: Record<string, unknown> = {}) {
  const ex = harness.another({ agent: agentCommand(...agentArgs), ...extra }).executor;
  await ex.runOnce();
  await harness.advance(HOUR);
  await ex.runOnce();
  const [run] = await harness.runs(ex);
  const row = ex.journal.list()[0];
  if (!run || !row) throw new Error('no run');
  return { ex, run, row };
}

describe('executor agents', () => {
  it('an agent that fails ends in fail with its exit code and last words', async () => {
    h = await startHarness();
    const { run, row, ex } = await oneRun(h, ['--mode', 'fail']);
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/^agent exited with code 3; last output: model quota exceeded/);
    expect(row.reason_code).toBe('agent_failed');
    const steps = ex.journal.steps(row.id).map((s) => `${s.step_id} ${s.status}`);
    expect(steps).toEqual([
      'prepare started',
      'prepare completed',
      'agent started',
      'think started',
      'think failed',
      'agent failed',
    ]);
    const log = readFileSync(join(row.run_dir as string, 'run.log'), 'utf8');
    expect(log).toMatch(/Z stderr model quota exceeded/);
  });

  it('an agent that times out is killed with its process tree and the run fails', async () => {
    h = await startHarness();
    const started = Date.now();
    const { run, row } = await oneRun(h, ['--mode', 'hang'], { runTimeoutMs: 800 });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/^agent timed out after 1 s and was stopped with its process tree/);
    expect(row.reason_code).toBe('agent_timeout');
    const grandchild = Number(readFileSync(join(row.run_dir as string, 'grandchild.pid'), 'utf8'));
    const until = Date.now() + scaled(3000);
    while (!gone(grandchild) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(gone(grandchild)).toBe(true);
  });

  it('an agent whose output breaks a limit fails with the limit named', async () => {
    h = await startHarness();
    const { run, row } = await oneRun(h, ['--mode', 'too-long']);
    expect(run.state).toBe('failed');
    expect(run.error).toBe(
      "output.json breaks the service's limits: caption is over the limit of 2200 (got 2300 characters)",
    );
    expect(row.reason_code).toBe('invalid_output');
    expect((await h.sb.control.state()).posts).toBe(0);
  });

  it('an agent that names an empty media file fails the run with that reason, nothing is uploaded', async () => {
    h = await startHarness();
    const empty = join(h.dir, 'empty.mp4');
    writeFileSync(empty, '');
    const { run, row } = await oneRun(h, ['--mode', 'video', '--file', empty]);
    expect(run.state).toBe('failed');
    expect(run.error).toBe('media empty.mp4 is empty (0 bytes): the agent did not finish writing it');
    expect(row.reason_code).toBe('invalid_output');
    expect((await h.sb.control.state()).posts).toBe(0);
  });

  it('an agent that names a file outside its run folder (or links one in) fails the run, nothing is uploaded', async () => {
    h = await startHarness();
    const secret = join(h.dir, 'id_ed25519.png');
    writeFileSync(secret, 'not a picture: a private key the skill told the agent to post');
    for (const args of [
      ['--mode', 'name-outside', '--file', secret],
      ['--mode', 'link-outside', '--file', secret],
      ['--mode', 'hardlink-outside', '--file', secret],
    ]) {
      const { run, row } = await oneRun(h, args);
      expect(run.state, args[1]).toBe('failed');
      expect(run.error, args[1]).toMatch(/is outside the run's folder|linked from elsewhere/);
      expect(run.error, args[1]).not.toContain('private key');
      expect(row.reason_code).toBe('invalid_output');
    }
    expect((await h.sb.control.state()).media).toEqual({ pending: 0, uploaded: 0 });
  });

  it('the agent gets its run directory and output path, but neither the API key nor the run token', async () => {
    h = await startHarness();
    const saved = { ...process.env };
    process.env.POSTDESK_API_KEY = h.sb.apiKey;
    process.env.SOME_PROVIDER_SETTING = `prefix-${h.sb.apiKey}`;
    try {
      const { run, row } = await oneRun(h, ['--mode', 'env']);
      expect(run.state).toBe('completed');
      const env = JSON.parse(readFileSync(join(row.run_dir as string, 'env.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(env.POSTDESK_RUN_DIR).toBe(row.run_dir);
      expect(env.POSTDESK_OUTPUT).toBe(join(row.run_dir as string, 'output.json'));
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.POSTDESK_API_KEY).toBeUndefined();
      expect(env.SOME_PROVIDER_SETTING).toBeUndefined();
      const values = Object.values(env).join('\n');
      expect(values).not.toContain(h.sb.apiKey);
      expect(values).not.toMatch(/pdrt_/);
      for (const f of ['task.md', 'run.json', 'run.log']) {
        const text = readFileSync(join(row.run_dir as string, f), 'utf8');
        expect(text).not.toContain(h.sb.apiKey);
        expect(text).not.toMatch(/pdrt_/);
      }
    } finally {
      process.env = saved;
    }
  });

  it('task.md holds the instructions and the skill markdown fetched by id and version', async () => {
    const { automation } = await import('./executor-harness');
    h = await startHarness({
      automations: [automation({ skill: { id: 'test-skill', version: '1.0.0' }, instructions: 'Be brief.' })],
    });
    const { run, row } = await oneRun(h, ['--mode', 'ok']);
    expect(run.state).toBe('completed');
    const task = readFileSync(join(row.run_dir as string, 'task.md'), 'utf8');
    expect(task).toContain('Be brief.');
    expect(task).toContain('# Test skill v1');
    expect(task).not.toContain('v2');
    const runJson = JSON.parse(readFileSync(join(row.run_dir as string, 'run.json'), 'utf8')) as {
      run_id: string;
    };
    expect(runJson.run_id).toBe(run.id);
  });

  it('the example agent resources/agents/caption-card.mjs publishes a card end to end', async () => {
    const { automation } = await import('./executor-harness');
    h = await startHarness({
      automations: [automation({ instructions: 'Good morning from the card agent!\n\nSecond paragraph.' })],
    });
    const card = resolve(import.meta.dirname, '../../resources/agents/caption-card.mjs');
    const ex = h.another({ agent: { command: process.execPath, args: [card] } }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    const [run] = await h.runs(ex);
    expect(run?.state, ex.journal.list()[0]?.reason ?? '').toBe('completed');
    expect(run?.output?.caption).toBe('Good morning from the card agent!');
    expect(run?.events.map((e) => `${e.step_id} ${e.status}`)).toContain('render completed');
  });
});
