import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandboxInProcess } from '../../src-main/cli/sandbox-connect';
import { connectSandbox, type SandboxLink } from '../../src-main/core/sandbox-link';
import { runCliHere } from '../helpers/cli-process';

let dataDir: string;
let link: SandboxLink;

const cli = (args: string[]) => runCliHere(args, { POSTDESK_DATA_DIR: dataDir, PATH: process.env.PATH });

const faults = async (settings: Record<string, unknown>): Promise<void> => {
  const res = await fetch(`${link.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  expect(res.status).toBe(200);
};

/** mulberry32 from seed 7 draws 0.01 and then 0.98 for the error rate: a failure, then a success. */
const FIRST_TRY_FAILS = { error_rate: 0.5, seed: 7, paths: ['/api/cli/accounts'] };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pd-cli-verbose-'));
  // Registered for the data directory, so each `--sandbox` command below talks to this one.
  link = await connectSandbox(dataDir, startSandboxInProcess);
});
afterAll(async () => {
  await link.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('--verbose shows on stderr the retries the client rode out; without it they leave no line', async () => {
  // Account listings fail by a seeded sequence, the same on every run and on any machine: the first try answers
  // 503, the next goes through (a timer that lifted the fault after 300 ms raced the client on a busy machine).
  await faults(FIRST_TRY_FAILS);
  const verbose = await cli(['--sandbox', '--verbose', 'accounts']);
  expect(verbose.code).toBe(0);
  expect(verbose.out).toContain('Demo TikTok');
  expect(verbose.err).toMatch(
    / debug listAccounts: try 1 failed, trying again \{"error":"[^"]*injected fault/,
  );

  await faults(FIRST_TRY_FAILS);
  const quiet = await cli(['--sandbox', 'accounts']);
  expect(quiet.code).toBe(0);
  expect(quiet.err).toBe('');
});

it('status says where the logs are: stderr for the CLI, the desktop app’s rotating file', async () => {
  const json = await cli(['--sandbox', '--json', 'status']);
  expect(JSON.parse(json.out).log).toEqual({
    cli: 'stderr, with --verbose',
    desktop_file: join(dataDir, 'logs', 'postdesk.log'),
  });
  const human = await cli(['--sandbox', 'status']);
  expect(human.out).toMatch(/log\s+stderr with --verbose; the desktop app's: .*postdesk\.log/);
});
