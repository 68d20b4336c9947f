import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { scaled } from '../helpers/timeouts';

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

it(
  'bench --check fails when a goal is changed to one the code misses, and names it',
  async () => {
    // The committed goals, with one changed to what no code can meet (--help in half the time of `node -e 0`)
    // and one loosened so far that any code meets it: a real run of the cli part, judged against both.
    const goals = JSON.parse(readFileSync(join(ROOT, 'bench', 'goals.json'), 'utf8')) as {
      goals: Record<string, Record<string, unknown>>;
    };
    goals.goals['cli.help_ratio'] = { what: 'help', at_most: 0.5, tolerance: 0, unit: 'x' };
    goals.goals['cli.accounts_ratio'] = { what: 'accounts', at_most: 1000, tolerance: 0, unit: 'x' };
    const file = join(dir, 'goals.json');
    writeFileSync(file, JSON.stringify(goals));

    const saved = join(dir, 'quiet.json');
    const r = await bench([
      'cli',
      '--check',
      '--goals',
      file,
      '--markdown',
      '--save',
      saved,
      '--label',
      'quiet',
    ]);
    expect(r.out).toMatch(/cli\.help_ratio\s+\d+\.\d+\s+goal <= 0\.5x\s+MISSED/);
    expect(r.out).toMatch(/cli\.accounts_ratio\s+\d+\.\d+\s+goal <= 1000x\s+MET/);
    expect(r.err).toContain('1 goal(s) missed past tolerance: cli.help_ratio');
    expect(r.code).toBe(1);

    // The same verdicts as the table docs/bench.md pastes, and saved for bench/table.ts to set beside another run.
    expect(r.out).toMatch(
      /\| `cli\.help_ratio` \| help \| <= 0\.5x \| \d+(\.\d+)? \| NOT MET \(past tolerance\) \|/,
    );
    expect(r.out).toMatch(/\| `cli\.accounts_ratio` \| accounts \| <= 1000x \| \d+(\.\d+)? \| MET \|/);
    const run = JSON.parse(readFileSync(saved, 'utf8')) as { label: string; verdicts: { id: string }[] };
    expect(run.label).toBe('quiet');
    expect(run.verdicts.map((v) => v.id)).toEqual(['cli.help_ratio', 'cli.accounts_ratio']);
    const table = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/table.ts', saved, saved], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(table).toMatch(
      /\| `cli\.help_ratio` \| help \| <= 0\.5x \| [\d.]+ \| NOT MET \(past tolerance\) \| [\d.]+ \| NOT MET \(past tolerance\) \|/,
    );
  },
  scaled(180_000),
);
