/**
 * `postdesk executor status`, a separate process from the daemon: it reads the state file a real
 * `postdesk executor` keeps, against a real sandbox whose registration route fails and then recovers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonStateFile } from '../../src-main/core/executor/daemon-state';
import { executorDataDir } from '../../src-main/core/paths';
import { runCliHere } from '../helpers/cli-process';
import { POSTDESK_BIN } from '../helpers/build-cli';
import { startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

async function waitFor<T>(
  get: () => Promise<T>,
  ok: (v: T) => boolean,
  ms: number,
  what: string,
): Promise<T> {
  const until = Date.now() + scaled(ms);
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function daemon(dataDir: string, harness: Harness): { child: ChildProcess; log: () => string } {
  const child = spawn(
    process.execPath,
    [POSTDESK_BIN, '--base-url', harness.sb.url, 'executor', '--sandbox-clock'],
    {
      env: {
        ...process.env,
        POSTDESK_DATA_DIR: dataDir,
        POSTDESK_API_KEY: harness.sb.apiKey,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  children.push(child);
  return { child, log: () => log };
}

describe('postdesk executor status', () => {
  it(
    'says "registering" while a running daemon retries its registration, "idle" once registered, and tells a killed daemon\'s file from a live one',
    async () => {
      h = await startHarness();
      const dataDir = join(h.dir, 'daemon');
      const env = { POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1', PATH: process.env.PATH };
      const status = async () => {
        const r = await runCliHere(['--json', 'executor', 'status'], env);
        return { code: r.code, json: JSON.parse(r.out) as Record<string, unknown> };
      };
      const human = () => runCliHere(['executor', 'status'], env);

      const none = await status();
      expect(none).toMatchObject({ code: 1, json: { running: false, stale: false } });

      await h.sb.control.faults({ error_rate: 1, paths: ['/api/agent/executors'] });
      const d = daemon(dataDir, h);
      const registering = await waitFor(status, (s) => s.json.state === 'registering', 30_000, 'registering');
      expect(registering.code).toBe(0);
      expect(registering.json).toMatchObject({
        running: true,
        stale: false,
        pid: d.child.pid,
        executor_id: null,
      });
      const text = await human();
      expect(text.out).toMatch(/^state\s+registering$/m);
      expect(text.out).toMatch(new RegExp(`^daemon\\s+running \\(pid ${d.child.pid}\\)$`, 'm'));
      // The file is private and replaced whole: no temp file is left beside it.
      const file = daemonStateFile(executorDataDir(dataDir));
      expect(statSync(file).mode & 0o777).toBe(0o600);

      await h.sb.control.faults({});
      const registered = await waitFor(
        status,
        (s) => s.json.state === 'idle' && s.json.executor_id !== null && s.json.last_sync_at !== null,
        30_000,
        'registered and synced',
      );
      expect(registered.json).toMatchObject({ running: true, pid: d.child.pid });
      // The fixture's hourly automation: its next occurrence, on the sandbox's clock.
      expect(registered.json.next_occurrence_at).toMatch(/T\d\d:00:00\.000Z$/);
      expect((await h.sb.control.state()).executors).toBe(1);

      d.child.kill('SIGKILL');
      await new Promise((r) => d.child.once('exit', r));
      const stale = await status();
      expect(stale).toMatchObject({ code: 1, json: { running: false, stale: true, pid: d.child.pid } });
      expect((await human()).out).toMatch(/ended without stopping cleanly/);

      // A daemon that stops on SIGTERM removes its file: nothing running, nothing stale.
      const again = daemon(dataDir, h);
      await waitFor(
        status,
        (s) => s.json.pid === again.child.pid && s.json.state === 'idle',
        30_000,
        'restart',
      );
      again.child.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => again.child.once('exit', (c) => r(c)));
      expect(code, again.log()).toBe(0);
      expect(existsSync(file)).toBe(false);
      expect(await status()).toMatchObject({ code: 1, json: { running: false, stale: false } });
    },
    scaled(120_000),
  );
});
