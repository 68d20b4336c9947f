/**
 * A proxy password is a credential: `postdesk config set proxyUrl http://user:password@host` keeps the
 * password in the OS keychain (a real gnome-keyring on a private D-Bus here), never in the store, and
 * every printout of the setting shows it redacted. The client still authenticates to the proxy with it:
 * a real CONNECT proxy that demands the credentials carries `postdesk accounts` to the sandbox.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestKeyring, type TestKeyring } from '../helpers/keyring';
import { needsTool } from '../helpers/system-tools';

const realKeyring = needsTool(
  ['dbus-daemon', 'gnome-keyring-daemon'],
  'the password is kept in a real gnome-keyring',
);

const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
const USER = 'proxyuser';
const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;

let sb: TestSandbox;
let keyring: TestKeyring;
let proxy: Server;
let proxyPort: number;
/** The Proxy-Authorization header of each CONNECT the proxy was asked for. */
const seen: (string | null)[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'pd-proxy-pw-'));

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture({ now: null }));
  keyring = await startTestKeyring();
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  proxy = createServer((client) => {
    client.once('data', (head) => {
      const text = head.toString();
      const target = /^CONNECT ([^ ]+) /.exec(text)?.[1];
      const auth = /^proxy-authorization: *(.+)$/im.exec(text)?.[1]?.trim() ?? null;
      seen.push(auth);
      if (!target) return client.destroy();
      if (auth !== expected) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
        return;
      }
      const [host, port] = target.split(':');
      const upstream = connect(Number(port), host as string, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyPort = (proxy.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await keyring.close();
  await sb.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const service = `postdesk-test-${randomUUID()}`;

function postdesk(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        POSTDESK_DATA_DIR: dataDir,
        POSTDESK_KEYCHAIN_SERVICE: service,
        POSTDESK_HTTP_RETRIES: '0',
        NO_COLOR: '1',
        ...keyring.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

/** Every file in the data directory (the store, its WAL), as one string. */
const filesOf = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');

it(
  'keeps the proxy password in the keychain, prints it redacted, and still authenticates with it',
  realKeyring,
  async () => {
    const proxyUrl = `http://${USER}:${PASSWORD}@127.0.0.1:${proxyPort}`;
    const set = await postdesk(['config', 'set', 'proxyUrl', proxyUrl]);
    expect(set.code, set.out).toBe(0);
    expect(set.out).not.toContain(PASSWORD);
    expect(set.out).toContain(`${USER}:[REDACTED]@127.0.0.1:${proxyPort}`);
    expect(filesOf(dataDir)).not.toContain(PASSWORD);
    expect(filesOf(dataDir)).toContain(`${USER}@127.0.0.1:${proxyPort}`);

    for (const args of [
      ['config', 'show'],
      ['--json', 'config', 'show'],
    ]) {
      const shown = await postdesk(args);
      expect(shown.code, shown.out).toBe(0);
      expect(shown.out).not.toContain(PASSWORD);
      expect(shown.out).toContain(`${USER}:[REDACTED]@127.0.0.1:${proxyPort}`);
    }

    // The real service call goes through the proxy, which lets it through only with the password.
    const accounts = await postdesk(['--base-url', sb.url, 'accounts'], { POSTDESK_API_KEY: sb.apiKey });
    expect(accounts.code, accounts.out).toBe(0);
    expect(accounts.out).toContain('instagram');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`);
    expect(accounts.out).not.toContain(PASSWORD);

    // Unset: the setting and the keychain entry both go; a later proxy without a password asks for none.
    const unset = await postdesk(['config', 'unset', 'proxyUrl']);
    expect(unset.code, unset.out).toBe(0);
    const plain = await postdesk(['config', 'set', 'proxyUrl', `http://${USER}@127.0.0.1:${proxyPort}`]);
    expect(plain.out).not.toContain('[REDACTED]');
    const refused = await postdesk(['--base-url', sb.url, 'accounts'], { POSTDESK_API_KEY: sb.apiKey });
    expect(refused.code).not.toBe(0);
    expect(seen.at(-1)).toBeNull();
  },
);
