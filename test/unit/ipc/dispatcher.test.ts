import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, registerSecret } from '../../../src-main/core/api/errors';
import { UNEXPECTED } from '../../../src-main/core/bridge/bridge-fault';
import { createBridgeDispatcher } from '../../../src-main/core/bridge/dispatcher';
import { createBridgeEvents } from '../../../src-main/core/bridge/events';
import type { Handlers } from '../../../src-main/core/bridge/handler-types';

/** The dispatcher on its own: handlers here are the input under test, one behaviour each. */
function dispatcherWith(accountsList: () => Promise<unknown>) {
  const events = createBridgeEvents();
  const handlers = { accounts: { list: accountsList } } as unknown as Handlers;
  return { d: createBridgeDispatcher(handlers, events), events };
}

const account = { id: 'a1', platform: 'x', name: 'A', created_at: '2030-01-01T00:00:00Z' };

describe('the dispatcher', () => {
  it('refuses unknown channels and event channels as calls', async () => {
    const { d } = dispatcherWith(async () => ({ accounts: [] }));
    for (const name of ['nope', 'accounts:nope', 'runs:didStepRun', '__proto__', 'constructor']) {
      expect(await d.invoke(name, undefined)).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    }
  });

  it('types service and network failures, without stacks', async () => {
    const api = dispatcherWith(async () => {
      throw new ApiError({
        status: 409,
        code: 'REVISION_STALE',
        message: 'stale revision',
        operation: 'listAccounts',
      });
    });
    expect(await api.d.invoke('accounts:list', undefined)).toEqual({
      ok: false,
      error: { kind: 'api', status: 409, code: 'REVISION_STALE', message: 'stale revision' },
    });
    const net = dispatcherWith(async () => {
      throw new NetworkError({
        kind: 'connect',
        causeCode: 'ECONNREFUSED',
        causeMessage: 'refused',
        maybeCommitted: false,
        operation: 'listAccounts',
        host: '127.0.0.1',
      });
    });
    const r = await net.d.invoke('accounts:list', undefined);
    expect(r).toMatchObject({ ok: false, error: { kind: 'network' } });
    const bug = dispatcherWith(async () => {
      throw new TypeError('x is undefined');
    });
    const b = await bug.d.invoke('accounts:list', undefined);
    // A bug's own words are for the log, not the page: it says what happened and what to do.
    expect(b).toEqual({ ok: false, error: { kind: 'internal', message: UNEXPECTED } });
  });

  it('maps post-creation issues to paths', async () => {
    const { d } = dispatcherWith(async () => {
      throw new ApiError({
        status: 400,
        message: 'invalid post',
        issues: { caption: ['too long'], 'targets.0.platform': 'youtube is not available' },
        operation: 'createPost',
      });
    });
    expect(await d.invoke('accounts:list', undefined)).toMatchObject({
      ok: false,
      error: {
        kind: 'api',
        status: 400,
        issues: [
          { path: 'caption', message: 'too long' },
          { path: 'targets.0.platform', message: 'youtube is not available' },
        ],
      },
    });
  });

  it('answers a handler that breaks its contract with an internal error, not the bad data', async () => {
    const { d } = dispatcherWith(async () => ({ accounts: [{ id: 1 }] }));
    expect(await d.invoke('accounts:list', undefined)).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
  });

  it('scrubs a registered credential from answers, errors and events', async () => {
    const key = 'pk_registered_secret_abcdef123';
    registerSecret(key);
    const leaky = dispatcherWith(async () => ({ accounts: [{ ...account, name: `echo ${key}` }] }));
    const r = await leaky.d.invoke('accounts:list', undefined);
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain(key);
    const thrower = dispatcherWith(async () => {
      throw new Error(`failed with ${key}`);
    });
    expect(JSON.stringify(await thrower.d.invoke('accounts:list', undefined))).not.toContain(key);
    const got: string[] = [];
    const sub = leaky.d.subscribe((c, p) => got.push(JSON.stringify([c, p])));
    leaky.events.emit('app:didNotify', { level: 'info', message: `key ${key}` });
    leaky.events.emit('app:didNotify', { level: 'loud', message: 'malformed' } as never);
    sub.dispose();
    expect(got).toHaveLength(1);
    expect(got[0]).not.toContain(key);
  });

  it('leaves ordinary words alone in data, and blanks credential-named members', async () => {
    const caption = 'Bearer of good news: authorization=granted, see https://user:pass@example.com';
    const d = dispatcherWith(async () => ({
      accounts: [{ ...account, name: caption, run_token: 'rt_123456789' }],
    }));
    const r = await d.d.invoke('accounts:list', undefined);
    expect(r).toMatchObject({ ok: true, value: { accounts: [{ name: caption, run_token: '[REDACTED]' }] } });
  });
});
