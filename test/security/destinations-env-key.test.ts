import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSettings } from '../../src-main/core/config/settings';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { MemorySecretStore } from '../../src-main/host/memory-secret-store';
import type { ConfirmPort } from '../../src-main/core/bridge/confirm';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { runCliHere } from '../helpers/cli-process';

/**
 * Issue #23, part 4: a compromised page of `postdesk web` (the desktop app's session is the same module) calls
 * `connection:connect` with an address of its own. Today the address changes without the confirmation
 * `settings:update` needs, the client is rebuilt with the key from POSTDESK_API_KEY or POSTDESK_API_KEY_FILE, and
 * the address is saved for the CLI too. A second loopback server, the page's, records every Authorization
 * header it is sent. The real host and WebSocket, a real sandbox as the person's service, the real CLI code.
 */

const PAGE_KEY = 'pd_page_chosen_key_00000000000001';
let sb: TestSandbox | undefined;
let host: TestWebHost | undefined;
let thief: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await host?.close();
  await sb?.close();
  if (thief) await new Promise((r) => thief!.close(r));
  if (dir) await rm(dir, { recursive: true, force: true });
  host = sb = thief = dir = undefined;
});

/** The page's own server: answers like the service, keeps every Authorization header. */
async function startThief(): Promise<{ url: string; heard: string[] }> {
  const heard: string[] = [];
  thief = createServer((req, res) => {
    heard.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"accounts":[]}');
  });
  await new Promise<void>((r) => thief!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(thief.address() as AddressInfo).port}`, heard };
}

type How = 'POSTDESK_API_KEY with POSTDESK_BASE_URL' | 'POSTDESK_API_KEY_FILE with the saved address';

/** `postdesk web` (not --sandbox) against the person's service, the key configured as `how` says. */
async function start(how: How, confirm?: ConfirmPort) {
  sb = await startTestSandbox();
  dir = await mkdtemp(join(tmpdir(), 'postdesk-destinations-'));
  const dataDir = join(dir, 'data');
  let env: Record<string, string>;
  if (how === 'POSTDESK_API_KEY with POSTDESK_BASE_URL') {
    env = { POSTDESK_API_KEY: sb.apiKey, POSTDESK_BASE_URL: sb.url };
  } else {
    const keyFile = join(dir, 'api-key');
    await writeFile(keyFile, `${sb.apiKey}\n`, { mode: 0o600 });
    env = { POSTDESK_API_KEY_FILE: keyFile };
    const store = openStore(storeFile(dataDir));
    updateSettings(store, { baseUrl: sb.url });
    store.close();
  }
  host = await startTestWebHost('postdesk-destinations-web-', {
    sandbox: false,
    dataDir,
    env,
    // The OS keychain is the edge: one in memory, which stores what Connect is given.
    secrets: new MemorySecretStore(),
    ...(confirm ? { confirm } : {}),
  });
  expect((await host.page.bridge.accounts.list()).ok).toBe(true); // connected with the configured key
  return { env, dataDir };
}

/** The CLI afterwards, with the same environment but no address of its own. */
async function cliAccounts(env: Record<string, string>, dataDir: string) {
  const { POSTDESK_BASE_URL: _configured, ...rest } = env;
  return runCliHere(['accounts', '--json'], {
    ...rest,
    POSTDESK_DATA_DIR: dataDir,
    HOME: dataDir,
    POSTDESK_HTTP_RETRIES: '0',
  });
}

const HOWS: How[] = [
  'POSTDESK_API_KEY with POSTDESK_BASE_URL',
  'POSTDESK_API_KEY_FILE with the saved address',
];

describe.each(HOWS)('a key from %s', (how) => {
  it('connection:connect to the page’s address: refused unconfirmed; the key never reaches it, not even from the CLI', async () => {
    const { env, dataDir } = await start(how);
    const { url, heard } = await startThief();
    const connected = await host!.page.bridge.connection.connect({ base_url: url, api_key: PAGE_KEY });
    expect(connected.ok).toBe(false);
    expect(!connected.ok && connected.error.kind).toBe('forbidden');
    await host!.page.bridge.accounts.list();
    const settings = await host!.page.bridge.settings.get();
    expect(settings.ok && settings.value.base_url).not.toBe(url);
    await cliAccounts(env, dataDir);
    expect(heard.filter((h) => h.includes(sb!.apiKey))).toEqual([]);
    // Nothing at all reached the page's server: the question came before any request.
    expect(heard).toEqual([]);
  });

  it('even confirmed, the page’s address gets only the key typed with it, in the app and in the CLI', async () => {
    const { env, dataDir } = await start(how, { confirm: async () => ({ confirmed: true }) });
    const { url, heard } = await startThief();
    const connected = await host!.page.bridge.connection.connect({ base_url: url, api_key: PAGE_KEY });
    expect(connected.ok).toBe(true);
    expect((await host!.page.bridge.accounts.list()).ok).toBe(true);
    const cli = await cliAccounts(env, dataDir);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.filter((h) => h.includes(sb!.apiKey))).toEqual([]);
    expect(new Set(heard)).toEqual(new Set([`Bearer ${PAGE_KEY}`]));
    // The CLI has no keychain here, and will not use the environment's key for that address.
    expect(cli.code).not.toBe(0);

    // Typed at the terminal, the same address is the person's own: the environment's key may go there now.
    const set = await runCliHere(['config', 'set', 'baseUrl', url], {
      POSTDESK_DATA_DIR: dataDir,
      HOME: dataDir,
    });
    expect(set.code, set.err).toBe(0);
    expect((await cliAccounts(env, dataDir)).code).toBe(0);
    expect(heard.at(-1)).toBe(`Bearer ${sb!.apiKey}`);
  });
});
