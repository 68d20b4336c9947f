import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunLog } from '../../../../src-main/core/executor/run-log';
import { runAgentProcess } from '../../../../src-main/core/executor/agent-process';
import type { StepLine } from '../../../../src-main/core/executor/step-line';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'agent-proc-'));
  dirs.push(d);
  return d;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

function script(dir: string, body: string): string {
  const f = join(dir, 'agent.mjs');
  writeFileSync(f, body);
  return f;
}

describe('agent processes', () => {
  it('spawns without a shell: arguments reach the agent literally', async () => {
    const dir = tmp();
    const f = script(
      dir,
      `import { writeFileSync } from 'node:fs'; writeFileSync('args.json', JSON.stringify(process.argv.slice(2)));`,
    );
    const args = ['$(touch pwned)', '; rm -rf /', '`id`', 'it\'s "quoted"'];
    const exit = await runAgentProcess({
      command: { command: process.execPath, args: [f, ...args] },
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      log: RunLog.open(tmpdir(), dir),
      timeoutMs: 10_000,
    });
    expect(exit).toEqual({ kind: 'exited', code: 0, signal: null, stderrTail: '' });
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual(args);
    expect(() => readFileSync(join(dir, 'pwned'))).toThrow();
  });

  it('turns ::step lines into steps and logs every line with its stream', async () => {
    const dir = tmp();
    const f = script(
      dir,
      `console.log('::step fetch started rss'); console.error('warn: slow'); console.log('plain'); console.log('::step fetch completed 3 items');`,
    );
    const steps: StepLine[] = [];
    const exit = await runAgentProcess({
      command: { command: process.execPath, args: [f] },
      cwd: dir,
      env: {},
      log: RunLog.open(tmpdir(), dir),
      timeoutMs: 10_000,
      onStep: (s) => steps.push(s),
    });
    expect(exit.kind).toBe('exited');
    expect(steps).toEqual([
      { stepId: 'fetch', status: 'started', message: 'rss' },
      { stepId: 'fetch', status: 'completed', message: '3 items' },
    ]);
    const log = readFileSync(join(dir, 'run.log'), 'utf8');
    expect(log).toMatch(/Z stdout ::step fetch started rss\n/);
    expect(log).toMatch(/Z stderr warn: slow\n/);
    expect(log).toMatch(/Z stdout plain\n/);
  });

  it('cancellation kills the whole process tree, grandchildren included', async () => {
    const dir = tmp();
    const f = script(
      dir,
      `import { spawn } from 'node:child_process'; import { writeFileSync } from 'node:fs';
       const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       writeFileSync('child.pid', String(c.pid)); console.log('::step wait started'); setInterval(() => {}, 1000);`,
    );
    const ac = new AbortController();
    const done = runAgentProcess({
      command: { command: process.execPath, args: [f] },
      cwd: dir,
      env: {},
      log: RunLog.open(tmpdir(), dir),
      timeoutMs: 60_000,
      signal: ac.signal,
      onStep: () => ac.abort(new Error('user asked')),
      killGraceMs: 500,
    });
    const exit = await done;
    expect(exit).toMatchObject({ kind: 'cancelled', reason: 'user asked' });
    const child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    const until = Date.now() + 3000;
    while (alive(child) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(alive(child)).toBe(false);
  });

  it('reports a command that cannot be started', async () => {
    const dir = tmp();
    const exit = await runAgentProcess({
      command: { command: join(dir, 'no-such-agent'), args: [] },
      cwd: dir,
      env: {},
      log: RunLog.open(tmpdir(), dir),
      timeoutMs: 5000,
    });
    expect(exit).toMatchObject({ kind: 'spawn-error' });
  });
});
