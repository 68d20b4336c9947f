/**
 * Headless, the API key can come from a private file (POSTDESK_API_KEY_FILE) instead of the
 * environment: any process of the same user reads `/proc/<pid>/environ` of the executor, but the file
 * route leaves the key out of it. The real `postdesk executor` daemon runs a real agent against the
 * sandbox with the file, and its environment and command line are read the way an agent could.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSettings } from '../../src-main/core/config/settings';
import { Journal } from '../../src-main/core/executor/journal';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { TEST_AGENT, startHarness, type Harness } from '../integration/executor-harness';
import { scaled } from '../helpers/timeouts';

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
const HOUR = 3_600_000;
let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `postdesk executor` with only what the test gives it: no API key in its environment. */
function daemon(dataDir: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, '--base-url', h!.sb.url, 'executor', ...args], {
    env: { PATH: process.env.PATH, HOME: dataDir, POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return { child, log: () => log, exited };
}

describe('POSTDESK_API_KEY_FILE', () => {
  it(
    'the executor works with the key from a private file, and its environment never holds it',
    { timeout: 90_000 },
    async () => {
      h = await startHarness();
      const key = h.sb.apiKey;
      const dataDir = join(h.dir, 'daemon');
      const keyFile = join(h.dir, 'api-key');
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
      const store = openStore(storeFile(dataDir));
      updateSettings(store, {
        agentCommands: { 'test-agent': { command: process.execPath, args: [TEST_AGENT, '--mode', 'env'] } },
      });
      const journal = new Journal(store, null);
      try {
        const d = daemon(dataDir, ['--sandbox-clock', '--sync-interval', '60'], {
          POSTDESK_API_KEY_FILE: keyFile,
        });
        await waitFor(
          () =>
            d.child.exitCode !== null ||
            store.db.prepare('SELECT cursor FROM executor_automations WHERE cursor IS NOT NULL').get() !==
              undefined,
          'the first sync',
        );
        expect(d.child.exitCode, d.log()).toBeNull();

        // What any process of this user can read of the running executor.
        const pid = d.child.pid as number;
        const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
        expect(environ).toContain(`POSTDESK_API_KEY_FILE=${keyFile}`);
        expect(environ).not.toContain(key);
        expect(readFileSync(`/proc/${pid}/cmdline`, 'latin1')).not.toContain(key);

        // The key works: an occurrence falls due, the agent runs, the service takes the completion.
        await h.advance(HOUR);
        await waitFor(
          async () => ((await h!.sb.control.state()).runs.completed ?? 0) >= 1,
          'a completed run',
        );
        const row = journal.list({ limit: 1 })[0];
        const agentEnv = readFileSync(join(row?.run_dir as string, 'env.json'), 'utf8');
        expect(agentEnv).not.toContain(key);
        expect(agentEnv).not.toContain('POSTDESK_API_KEY_FILE');
        expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).not.toContain(key);

        d.child.kill('SIGTERM');
        expect(await d.exited, d.log()).toBe(0);
        expect(d.log()).not.toContain(key);
      } finally {
        store.close();
      }
    },
  );

  it('a key file other users can read is refused, and the key is not printed', async () => {
    h = await startHarness();
    const key = h.sb.apiKey;
    const dataDir = join(h.dir, 'loose');
    const keyFile = join(h.dir, 'api-key');
    writeFileSync(keyFile, key, { mode: 0o644 });
    const d = daemon(dataDir, ['--once'], { POSTDESK_API_KEY_FILE: keyFile });
    const code = await d.exited;
    expect(code).not.toBe(0);
    expect(d.log()).toContain(keyFile);
    expect(d.log()).toMatch(/other users|group|chmod 600/);
    expect(d.log()).not.toContain(key);
    expect((await h.sb.control.state()).executors).toBe(0);
  });
});
