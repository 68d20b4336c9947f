import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process';
import { IDS, TEST_KEYS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * "In the future" is the service's judgement, by its clock: against a sandbox whose clock runs three days ahead of
 * this computer, `--at` a day from now is past there and refused before anything is queued (exit 2), and a time
 * after the sandbox's now is accepted. `posts update --at` and `posts retry --at` judge by the same clock.
 */

const DAY = 24 * 3_600_000;
let sb: TestSandbox;
let dataDir: string;

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: new Date(Date.now() + 3 * DAY).toISOString() }));
  dataDir = mkdtempSync(join(tmpdir(), 'pd-service-clock-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { baseUrl: sb.url, dataDir, apiKey: TEST_KEYS.a }).done;

it('refuses --at between real now and the service now as past, and accepts one after the service now', async () => {
  const serviceNow = Date.parse(await sb.control.clock());
  expect(serviceNow - Date.now()).toBeGreaterThan(2.9 * DAY);
  const before = await sb.control.state();

  const tomorrow = new Date(Date.now() + DAY).toISOString();
  const past = await cli(
    'posts',
    'create',
    '-c',
    'by whose clock',
    '-t',
    `x:${IDS.accounts.x}`,
    '--at',
    tomorrow,
  );
  expect(past.code, past.out).toBe(2);
  expect(past.out).toMatch(/--at|\bat\b/);
  expect(past.out).toContain('in the past');
  // Nothing was queued nor sent for it.
  expect(await sb.control.state()).toEqual(before);
  const queued = await cli('outbox', 'list', '--json');
  expect(queued.out).not.toContain('by whose clock');

  const later = new Date(serviceNow + DAY).toISOString();
  const ok = await cli(
    'posts',
    'create',
    '-c',
    'by whose clock',
    '-t',
    `x:${IDS.accounts.x}`,
    '--at',
    later,
    '--json',
  );
  expect(ok.code, ok.out).toBe(0);
  const made = JSON.parse(ok.out) as { state: string; post_id: string; scheduled_at: string };
  expect(made).toMatchObject({ state: 'sent', scheduled_at: later });

  // The same clock for moving it: to tomorrow (past there) refused, two days after the service's now accepted.
  const move = await cli('posts', 'update', made.post_id, '--at', tomorrow);
  expect(move.code, move.out).toBe(2);
  expect(move.out).toContain('in the past');
  const moved = await cli(
    'posts',
    'update',
    made.post_id,
    '--at',
    new Date(serviceNow + 2 * DAY).toISOString(),
  );
  expect(moved.code, moved.out).toBe(0);
});
