/**
 * The measuring helpers every bench part uses: percentiles of samples, and timing a function or a process.
 * Percentiles are nearest-rank on the sorted samples; no samples give NaN (a figure no goal can meet).
 */
import { spawn } from 'node:child_process';

/** The sample at fraction `q` (0 to 1) of the sorted samples: 0.5 the median, 0.99 the p99. */
export function percentile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

export const median = (xs: readonly number[]): number => percentile(xs, 0.5);
export const p99 = (xs: readonly number[]): number => percentile(xs, 0.99);

/** The median of `rounds` timed calls of `fn`, after one untimed call (statements prepared, pages cached). */
export function timeRounds(rounds: number, fn: () => unknown): number {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** timeRounds for an asynchronous `fn`. */
export async function timeRoundsAsync(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

export interface TimedProcess {
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One process, start to exit, with what it printed. Asynchronous, so a server in this process keeps answering. */
export function timeProcess(
  command: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<TimedProcess> {
  return new Promise((done, fail) => {
    const t = performance.now();
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ ms: performance.now() - t, code, stdout, stderr }));
  });
}
