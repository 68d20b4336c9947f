/**
 * Shared set-up of the executor's integration tests: a real sandbox on a free port with its virtual
 * clock, the real API client, a real SQLite store in a temp directory, and real agent processes.
 * The executor's manual clock follows the sandbox's: `advance()` moves both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiClient, type ApiClient } from '../../src-main/core/api/client';
import { createManualClock, type ManualClock } from '../../src-main/core/executor/clock';
import type { ExecutorConfig } from '../../src-main/core/executor/config';
import { Executor } from '../../src-main/core/executor/executor';
import { storeFile } from '../../src-main/core/paths';
import { openStore, type Store } from '../../src-main/core/store/store';
import { FIXTURE_NOW, IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

export const TEST_AGENT = resolve(import.meta.dirname, '../agents/test-agent.mjs');
export { FIXTURE_NOW, IDS };

export const AUTOMATION_ID = IDS.automation;

export function automation(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: AUTOMATION_ID,
    name: 'Hourly test',
    status: 'active',
    execution_mode: 'draft',
    queue: 'local',
    schedule: { cron: '0 * * * *', timezone: 'UTC' },
    instructions: 'Post a test image.',
    targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
    ...over,
  };
}

export interface Harness {
  sb: TestSandbox;
  dir: string;
  store: Store;
  clock: ManualClock;
  api: ApiClient;
  executor: Executor;
  /** Moves the sandbox clock, then the executor's clock to the sandbox's answer. */
  advance(ms: number): Promise<Date>;
  /** Another executor on the same sandbox, with its own store (a second machine). */
  another(opts?: Partial<ExecutorConfig>): { executor: Executor; store: Store; dataDir: string };
  /** The service's view of every run this executor's journal knows. */
  runs(executor?: Executor): Promise<RunJson[]>;
  close(): Promise<void>;
}

export interface RunJson {
  id: string;
  state: string;
  scheduled_for: string | null;
  idempotency_key: string | null;
  error: string | null;
  executor_id: string | null;
  events: { step_id: string; status: string; message: string | null }[];
  result: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
}

export function agentCommand(...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [TEST_AGENT, ...args] };
}

export async function startHarness(
  o: {
    automations?: Record<string, unknown>[];
    executor?: Partial<ExecutorConfig>;
    accounts?: { token_expired?: boolean };
    /** Where the executors' data directories go (default: the OS temp directory). */
    root?: string;
  } = {},
): Promise<Harness> {
  const fixture = demoFixture({ executors: [], automations: o.automations ?? [automation()] });
  if (o.accounts?.token_expired) {
    for (const a of fixture.owners?.[0]?.accounts ?? [])
      (a as { token_expired?: boolean }).token_expired = true;
  }
  const sb = await startTestSandbox(fixture);
  const dir = await mkdtemp(join(o.root ?? tmpdir(), 'postdesk-executor-'));
  const clock = createManualClock(new Date(FIXTURE_NOW));
  const api = createApiClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    retry: { retries: 4, minTimeoutMs: 5, maxTimeoutMs: 50 },
  });
  const stores: Store[] = [];
  const executors: Executor[] = [];
  const make = (sub: string, extra: Partial<ExecutorConfig> = {}) => {
    const store = openStore(storeFile(join(dir, sub)));
    stores.push(store);
    const executor = new Executor({
      api,
      store,
      scope: sb.url,
      dataDir: join(dir, sub),
      name: `test ${sub}`,
      agentType: 'test-agent',
      agent: agentCommand('--mode', 'ok'),
      clock,
      secrets: [sb.apiKey],
      directUploadPollMs: 10,
      retryBaseMs: 5,
      runTimeoutMs: 20_000,
      concurrency: 2,
      syncIntervalMs: 60_000,
      ...o.executor,
      ...extra,
    });
    executors.push(executor);
    return { executor, store, dataDir: join(dir, sub) };
  };
  const first = make('a');
  let n = 0;
  return {
    sb,
    dir,
    store: first.store,
    clock,
    api,
    executor: first.executor,
    async advance(ms) {
      const now = new Date(await sb.control.advance(ms));
      clock.set(now);
      return now;
    },
    another: (extra) => make(`b${(n += 1)}`, extra),
    async runs(executor = first.executor) {
      const ids = executor.journal.list({ limit: 10_000 }).flatMap((r) => (r.run_id ? [r.run_id] : []));
      const executorId = executor.status().executorId as string;
      const out: RunJson[] = [];
      for (const id of ids) {
        const res = await sb.api('GET', `/api/agent/runs/${id}?executor_id=${executorId}`);
        if (res.status !== 200) throw new Error(`GET run ${id}: ${res.status} ${res.text}`);
        out.push((res.body as { run: RunJson }).run);
      }
      return out;
    },
    async close() {
      for (const e of executors) await e.stop({ graceMs: 0 }).catch(() => undefined);
      await api.close();
      for (const s of stores) s.close();
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `postdesk <args>` in-process against a data directory; the `executor` and `runs` commands included. */
export async function cli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { Writable } = await import('node:stream');
  const { Command, Option } = await import('commander');
  const { createDeps } = await import('../../src-main/cli/context');
  const { registerExecutorCommand } = await import('../../src-main/cli/commands/executor');
  const { registerRunsCommand } = await import('../../src-main/cli/commands/runs');
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        append(chunk.toString());
        cb();
      },
    });
  const io = {
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    stdin: process.stdin,
    env: { ...process.env, POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1', ...env },
  };
  const { deps, state } = createDeps(io);
  const program = new Command('postdesk')
    .addOption(new Option('--json'))
    .addOption(new Option('--base-url <url>'))
    .addOption(new Option('--sandbox'))
    .exitOverride();
  registerExecutorCommand(program, deps);
  registerRunsCommand(program, deps);
  let code = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
    code = state.exitCode;
  } catch (err) {
    stderr += String(err);
    code = 1;
  } finally {
    await state.close();
  }
  return { code, stdout, stderr };
}
