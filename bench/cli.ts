/**
 * CLI start-up (`npm run bench -- cli`): wall time of whole `postdesk` processes, as a shell runs them, beside
 * `node -e 0` measured in the same rounds (each round runs every command once, in turn, so load on the machine
 * falls on all of them alike). Median of 10 after one untimed run of each (which fills the compile cache).
 * 1. `postdesk --version` and `postdesk --help`: goal for --help at most 3x node -e 0.
 * 2. `postdesk accounts --json` against a running sandbox: goal at most 4x.
 * 3. `postdesk --sandbox accounts --json` with no sandbox running for its data directory: it starts one in its
 *    own process. Beside it, what that start is made of: loading the sandbox's server stack alone.
 * 4. `accounts --json` without the compile cache, to show what the cache saves on every later run.
 * The CLI is built first (npm run build:cli), so this measures what `npm install` gives, not tsx.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestSandbox } from '../test/helpers/sandbox';
import { goalOf, judge } from './goals';
import { median, timeProcess } from './measure';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'postdesk.js');
/** POSTDESK_BENCH_ROUNDS shortens a run (the --check test uses 1); the figures quoted in docs use 10. */
const ROUNDS = Number(process.env.POSTDESK_BENCH_ROUNDS) || 10;

/** `npm run build:cli`: what `npm install` gives, so the figures are the built CLI's, not tsx's. */
export function buildCli(): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'inherit' });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`npm run build:cli exited ${code}`))));
  });
}

export async function benchCli(): Promise<void> {
  // The --check test runs inside the suite, where rebuilding out/cli would race the tests that run it.
  if (process.env.POSTDESK_BENCH_NO_BUILD !== '1') await buildCli();
  const sb = await startTestSandbox();
  const dir = await mkdtemp(join(tmpdir(), 'bench-cli-'));
  try {
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
      POSTDESK_DATA_DIR: join(dir, 'data'),
      POSTDESK_KEYCHAIN_SERVICE: 'postdesk-bench',
      NO_COLOR: '1',
    };
    const service = { ...base, POSTDESK_API_KEY: sb.apiKey, POSTDESK_BASE_URL: sb.url };
    // Its own data directory, where no other process runs a sandbox: each run starts one in-process.
    const offline = { ...base, POSTDESK_DATA_DIR: join(dir, 'offline') };
    const cases: { name: string; args: string[]; env: NodeJS.ProcessEnv }[] = [
      { name: 'node -e 0', args: ['-e', '0'], env: base },
      { name: 'postdesk --version', args: [BIN, '--version'], env: base },
      { name: 'postdesk --help', args: [BIN, '--help'], env: base },
      { name: 'postdesk accounts --json', args: [BIN, 'accounts', '--json'], env: service },
      {
        name: 'postdesk --sandbox accounts --json',
        args: [BIN, '--sandbox', 'accounts', '--json'],
        env: offline,
      },
      {
        name: 'accounts --json, no compile cache',
        args: [BIN, 'accounts', '--json'],
        env: { ...service, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: '1' },
      },
      {
        name: 'load fastify + MCP SDK alone',
        args: [
          '--input-type=module',
          '-e',
          "await import('fastify'); await import('@modelcontextprotocol/sdk/server/mcp.js'); " +
            "await import('@modelcontextprotocol/sdk/server/streamableHttp.js');",
        ],
        env: base,
      },
    ];
    const times = cases.map(() => [] as number[]);
    for (let round = -1; round < ROUNDS; round++) {
      for (const [i, c] of cases.entries()) {
        const r = await timeProcess(process.execPath, c.args, { env: c.env, cwd: ROOT });
        if (r.code !== 0) {
          throw new Error(`${c.name} exited ${r.code}: ${(r.stderr || r.stdout).slice(0, 400)}`);
        }
        if (c.name.includes('accounts') && !r.stdout.includes('"accounts"')) {
          throw new Error(`${c.name} printed no accounts: ${r.stdout.slice(0, 200)}`);
        }
        if (round >= 0) times[i]!.push(r.ms);
      }
    }
    const ms = times.map(median);
    const node = ms[0]!;
    console.log(`whole processes, wall time, median of ${ROUNDS} (node ${process.version}):`);
    for (const [i, c] of cases.entries()) {
      const ratio = i === 0 ? '' : `${(ms[i]! / node).toFixed(1)}x node -e 0`;
      console.log(`  ${c.name.padEnd(36)} ${ms[i]!.toFixed(0).padStart(6)} ms  ${ratio}`);
    }
    const goal = (name: string, i: number, id: string): void => {
      const ratio = ms[i]! / node;
      console.log(`  ${name}: ${ratio.toFixed(1)}x node -e 0 (goal ${goalOf(id)}) ${judge(id, ratio)}`);
    };
    goal('--help', 2, 'cli.help_ratio');
    goal('accounts --json against a running sandbox', 3, 'cli.accounts_ratio');
    const sandboxCost = ms[4]! - ms[3]!;
    console.log(
      `  --sandbox accounts --json costs ${sandboxCost.toFixed(0)} ms more than against a running sandbox: it loads` +
        ` the sandbox's server stack (fastify and the MCP SDK alone take ${ms[6]!.toFixed(0)} ms to load, node` +
        ` start included), opens its SQLite file and listens on a port, then stops it when the command ends.` +
        ` A sandbox another Postdesk process keeps running for the same data directory (\`postdesk --sandbox` +
        ` executor\`, the desktop app's "Try offline") is reused instead, and then --sandbox costs about what the` +
        ` line above it does.`,
    );
  } finally {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  }
}
