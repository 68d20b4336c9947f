import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { AsyncEntry } from '@napi-rs/keyring';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_SECRET,
  KeychainSecretStore,
  KeychainUnavailableError,
  resolveApiKey,
  type SecretStore,
} from '../../../../src-main/core/secrets/secret-store';

const run = promisify(execFile);
const required = process.env.POSTDESK_KEYCHAIN_TEST === '1';

/** Whether a Secret Service answers here (pinned like the store, so keyutils does not fake an answer). */
async function keychainWorks(): Promise<boolean> {
  try {
    const e = new AsyncEntry(
      'postdesk-probe',
      randomUUID(),
      process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined,
    );
    await e.setPassword('probe');
    await e.deletePassword();
    return true;
  } catch {
    return false;
  }
}
const available = await keychainWorks();
const runReal = required || available;
if (!runReal) {
  console.log(
    'keychain tests: no Secret Service in this session, skipping the real keychain test ' +
      '(CI runs it under dbus-run-session + gnome-keyring with POSTDESK_KEYCHAIN_TEST=1)',
  );
}

describe('KeychainSecretStore', () => {
  it.runIf(runReal)('sets, gets, has and deletes a secret in the real OS keychain', async () => {
    // A service of its own, so the test never touches a real Postdesk key.
    const store = new KeychainSecretStore(`postdesk-test-${randomUUID()}`);
    const name = 'api-key';
    const value = `pd_test_${randomUUID()}`;
    expect(await store.get(name)).toBeNull();
    await store.set(name, value);
    expect(await store.get(name)).toBe(value);
    expect(await store.has(name)).toBe(true);
    await store.set(name, `${value}-2`);
    expect(await store.get(name)).toBe(`${value}-2`);
    await store.delete(name);
    expect(await store.get(name)).toBeNull();
    expect(await store.has(name)).toBe(false);
    await store.delete(name);
  });

  it.runIf(!available && !required)(
    'without a Secret Service it fails with a message that names the remedy',
    async () => {
      const store = new KeychainSecretStore(`postdesk-test-${randomUUID()}`);
      const err = await store.set('api-key', 'x'.repeat(20)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KeychainUnavailableError);
      expect((err as Error).message).toMatch(/gnome-keyring|Secret Service/);
      expect((err as Error).message).toContain('POSTDESK_API_KEY');
    },
  );

  it.runIf(process.platform === 'linux')(
    'names the remedy when the D-Bus session is missing (a fresh process, as the library caches its bus)',
    async () => {
      const moduleUrl = new URL('../../../../src-main/core/secrets/secret-store.ts', import.meta.url).href;
      const code = `const { KeychainSecretStore } = await import(${JSON.stringify(moduleUrl)});
        try { await new KeychainSecretStore('postdesk-test-nobus').get('api-key'); console.log('NO ERROR'); }
        catch (e) { console.log(e.name + ': ' + e.message); }`;
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/postdesk-test-bus' },
      });
      expect(stdout).toMatch(/^KeychainUnavailableError: the OS keychain is not available/);
      expect(stdout).toContain('gnome-keyring');
      expect(stdout).toContain('POSTDESK_API_KEY');
    },
  );
});

describe('resolveApiKey', () => {
  /** A store that must not be consulted when the environment already has the key. */
  const memory = (initial: Record<string, string> = {}): SecretStore & { reads: number } => {
    const m = new Map(Object.entries(initial));
    return {
      reads: 0,
      async get(n) {
        this.reads++;
        return m.get(n) ?? null;
      },
      async set(n, v) {
        m.set(n, v);
      },
      async delete(n) {
        m.delete(n);
      },
      async has(n) {
        return m.has(n);
      },
    };
  };

  it('POSTDESK_API_KEY overrides the keychain', async () => {
    const s = memory({ [API_KEY_SECRET]: 'from-keychain-123' });
    expect(await resolveApiKey(s, { POSTDESK_API_KEY: 'from-env-123456' })).toBe('from-env-123456');
    expect(s.reads).toBe(0);
    expect(await resolveApiKey(s, {})).toBe('from-keychain-123');
    expect(await resolveApiKey(memory(), {})).toBeNull();
  });
});
