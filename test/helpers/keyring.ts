/**
 * A real OS keychain for child processes: a private D-Bus session bus with an unlocked gnome-keyring
 * (the Secret Service Postdesk uses on Linux), in a HOME of its own so no real keyring is touched.
 * Pass `env` to the `postdesk` processes a test spawns.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from './timeouts';

const run = promisify(execFile);

export interface TestKeyring {
  /** HOME, XDG_RUNTIME_DIR and DBUS_SESSION_BUS_ADDRESS of the private session. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

async function secretsServiceUp(env: Record<string, string>): Promise<boolean> {
  try {
    const { stdout } = await run(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { env: { ...process.env, ...env } },
    );
    return /boolean true/.test(stdout);
  } catch {
    return false;
  }
}

export async function startTestKeyring(): Promise<TestKeyring> {
  const home = mkdtempSync(join(tmpdir(), 'pd-keyring-'));
  const children: ChildProcess[] = [];
  const close = async () => {
    for (const c of children.reverse()) if (c.exitCode === null) c.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, HOME: home },
    });
    children.push(bus);
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
      bus.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
    });
    const env = { HOME: home, XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, ...env },
    });
    children.push(keyring);
    // An empty password makes (and unlocks) the login keyring of this HOME.
    keyring.stdin.end('\n');
    const until = Date.now() + scaled(10_000);
    while (!(await secretsServiceUp(env))) {
      if (Date.now() > until) throw new Error('gnome-keyring did not take the Secret Service name');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { env, close };
  } catch (e) {
    await close();
    throw e;
  }
}
