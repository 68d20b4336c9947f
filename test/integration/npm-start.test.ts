/**
 * `npm start` stops when npm is told to: the script execs the web host in place of npm's shell, so the SIGTERM or
 * SIGINT that npm forwards to its script reaches the host, which closes its port and exits. (With
 * `build && node …`, npm's shell died of the signal and the host went on serving.) Run as
 * `npm start --ignore-scripts`, so `prestart`'s renderer build is not redone under the other tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/timeouts';

const ROOT = resolve(import.meta.dirname, '../..');
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + scaled(ms);
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// POSIX signals and process groups; on Windows npm runs scripts in cmd.exe, which has no `exec` (README).
describe.skipIf(process.platform === 'win32')('npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the web host when npm's own process gets ${signal}`, async () => {
      const home = mkdtempSync(join(tmpdir(), 'pd-npm-start-'));
      // Its own process group, so that whatever the test leaves behind is ended with it, the host included.
      const npm = spawn('npm', ['start', '--ignore-scripts', '--', '--no-open', '--no-executor'], {
        cwd: ROOT,
        env: { ...process.env, HOME: home, POSTDESK_DATA_DIR: join(home, 'data'), NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      cleanup = () => {
        try {
          process.kill(-npm.pid!, 'SIGKILL');
        } catch {
          // Already gone: the group ended with npm.
        }
        rmSync(home, { recursive: true, force: true });
      };
      let out = '';
      npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
      npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
      let exited = false;
      npm.once('exit', () => (exited = true));

      await until('the host to listen', 60_000, async () => /postdesk web listening on /.test(out));
      const port = Number(/postdesk web listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
      expect(await listening(port), out).toBe(true);

      process.kill(npm.pid!, signal);
      await until('npm to exit', 10_000, async () => exited);
      await until(`port ${port} to close`, 10_000, async () => !(await listening(port)));
    });
  }
});
