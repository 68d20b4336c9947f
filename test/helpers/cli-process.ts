import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { POSTDESK_BIN } from './build-cli';

export interface CliRun {
  readonly child: ChildProcess;
  /** Resolves when the process has exited, with everything it printed (stdout then stderr, interleaved). */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

/** The real `postdesk` CLI in its own process, against `baseUrl`, with its own data directory and key. */
export function runCli(
  args: readonly string[],
  o: { baseUrl: string; dataDir: string; apiKey: string; env?: Readonly<Record<string, string>> },
): CliRun {
  const child = spawn(process.execPath, [POSTDESK_BIN, '--base-url', o.baseUrl, ...args], {
    env: {
      PATH: process.env.PATH,
      POSTDESK_DATA_DIR: o.dataDir,
      POSTDESK_API_KEY: o.apiKey,
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((r) =>
    child.on('close', (code, signal) => r({ code, signal, out })),
  );
  return { child, done };
}

/** `postdesk <args>` in this process with captured streams: the same code path as the binary, no spawn. */
export async function runCliHere(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  stdin = '',
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  // Loaded here, not at the top: a test that only spawns the CLI (runCli) need not compile the whole program.
  const { runCli: runCliInProcess } = await import('../../src-main/cli/program');
  const code = await runCliInProcess(args, { stdout, stderr, stdin: Readable.from([stdin]), env });
  return { code, out, err };
}
