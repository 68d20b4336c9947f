import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridgeSession } from '../../../src-main/host/session';
import { KeychainUnavailableError, type SecretStore } from '../../../src-main/core/secrets/secret-store';
import { openLocal } from '../../../src-main/core/services';
import { SettingsPatch } from '../../../src-shared/ipc/settings';
import { MemoryLog } from '../../helpers/memory-log';

/** The OS keychain as a machine without a Secret Service has it: every call fails the way the real store does. */
const noKeychain: SecretStore = {
  get: async () =>
    Promise.reject(new KeychainUnavailableError('no Secret Service on the session bus', 'linux')),
  set: async () =>
    Promise.reject(new KeychainUnavailableError('no Secret Service on the session bus', 'linux')),
  delete: async () =>
    Promise.reject(new KeychainUnavailableError('no Secret Service on the session bus', 'linux')),
  has: async () =>
    Promise.reject(new KeychainUnavailableError('no Secret Service on the session bus', 'linux')),
};

let dir: string;
let local: ReturnType<typeof openLocal>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-session-log-'));
  local = openLocal(dir, noKeychain);
});
afterEach(() => {
  local.store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bridge session', () => {
  it('reads a keychain that does not answer as "no key", and says why in the log', async () => {
    const log = new MemoryLog();
    const session = createBridgeSession({ secrets: noKeychain, settings: local.settings, env: {}, log });
    expect(await session.connection.status()).toMatchObject({ has_key: false });
    await session.secrets.clear();
    expect(log.entries.map((e) => [e.level, e.message])).toEqual([
      ['warn', 'the keychain could not be read; no key is available'],
      ['warn', 'the keychain could not be asked to forget the API key'],
    ]);
    expect(String(log.entries[0]?.fields?.error)).toMatch(/the OS keychain is not available/);
    await session.close();
  });

  it('logs a key file that cannot be used, rather than reading it silently as no key', async () => {
    const log = new MemoryLog();
    const session = createBridgeSession({
      secrets: noKeychain,
      settings: local.settings,
      env: { POSTDESK_API_KEY_FILE: join(dir, 'missing-key') },
      log,
    });
    expect(await session.connection.status()).toMatchObject({ has_key: false });
    expect(log.entries[0]).toMatchObject({
      level: 'warn',
      message: 'the API key file cannot be used; no key until it is fixed',
      fields: { error: expect.stringMatching(/cannot be read \(ENOENT\)/) },
    });
    await session.close();
  });

  it('shows the host’s log file in the settings view, which no patch can change', async () => {
    const file = join(dir, 'logs', 'postdesk.log');
    const session = createBridgeSession({
      secrets: noKeychain,
      settings: local.settings,
      env: {},
      logFile: file,
    });
    expect((await session.settings.get()).log_file).toBe(file);
    const without = createBridgeSession({ secrets: noKeychain, settings: local.settings, env: {} });
    expect((await without.settings.get()).log_file).toBeNull();

    expect(SettingsPatch.safeParse({ log_file: '/tmp/elsewhere.log' }).success).toBe(false);
    const mixed = SettingsPatch.parse({ log_file: '/tmp/elsewhere.log', concurrency: 2 });
    expect(mixed).toEqual({ concurrency: 2 });
    expect((await session.settings.update(mixed)).log_file).toBe(file);
    await session.close();
    await without.close();
  });
});
