import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'bench-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bench(args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, POSTDESK_BENCH_ROUNDS: '1', POSTDESK_BENCH_NO_BUILD: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

it('bench --check fails when a goal is changed to one the code misses, and names it', async () => {
  // The committed goals, with one changed to what no code can meet (--help in half the time of `node -e 0`)
  // and one loosened so far that any code meets it: a real run of the cli part, judged against both.
  const goals = JSON.parse(readFileSync(join(ROOT, 'bench', 'goals.json'), 'utf8')) as {
    goals: Record<string, Record<string, unknown>>;
  };
  goals.goals['cli.help_ratio'] = { what: 'help', at_most: 0.5, tolerance: 0, unit: 'x' };
  goals.goals['cli.accounts_ratio'] = { what: 'accounts', at_most: 1000, tolerance: 0, unit: 'x' };
  const file = join(dir, 'goals.json');
  writeFileSync(file, JSON.stringify(goals));

  const r = await bench(['cli', '--check', '--goals', file]);
  expect(r.out).toMatch(/cli\.help_ratio\s+\d+\.\d+\s+goal <= 0\.5x\s+MISSED/);
  expect(r.out).toMatch(/cli\.accounts_ratio\s+\d+\.\d+\s+goal <= 1000x\s+MET/);
  expect(r.err).toContain('1 goal(s) missed past tolerance: cli.help_ratio');
  expect(r.code).toBe(1);
}, 180_000);
