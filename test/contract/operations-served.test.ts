import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '../../src-shared/api/operations';
import { TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * The sandbox serves every operation where the contract's table (src-shared/api/operations.ts) puts it,
 * to the credential the table names: each route is registered from the table (src-sandbox/operation-route.ts),
 * and these requests hold the running sandbox to it.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const pathOf = (op: Operation): string => op.path.replace(/\{\w+\}/g, randomUUID());
const send = (op: Operation, key: string | null) =>
  sb.api(op.method, pathOf(op), { key, body: op.method === 'GET' ? undefined : {} });

/** What a request without a credential gets, by the credential the table names. */
const REFUSAL: Record<Operation['credential'], { status: number; code: string } | null> = {
  none: null,
  apiKey: { status: 401, code: 'UNAUTHORIZED' },
  runToken: { status: 401, code: 'RUN_TOKEN_REQUIRED' },
  runTokenOrApiKey: { status: 401, code: 'UNAUTHORIZED' },
  'runTokenOrApiKey+executor': { status: 401, code: 'UNAUTHORIZED' },
};

describe('the operations table, served', () => {
  it.each(Object.entries(OPERATIONS))('%s: refused without its credential, routed with it', async (_, op) => {
    const bare = await send(op, null);
    const refusal = REFUSAL[op.credential];
    if (refusal)
      expect(bare, bare.text).toMatchObject({ status: refusal.status, body: { code: refusal.code } });
    else expect(bare.status, bare.text).not.toBe(401);
    expect(bare.text).not.toMatch(/no route/);

    // With a key (no run token: an API key is refused there, above) the empty body meets the operation
    // itself: whatever it answers, it is not a refusal of the caller.
    const keyed = await send(op, TEST_KEYS.a);
    if (op.credential === 'runToken') expect(keyed.status).toBe(401);
    else expect([401, 403], keyed.text).not.toContain(keyed.status);
  });

  it('asks for the scope the table names', async () => {
    const scoped = Object.entries(OPERATIONS).filter(([, op]) => 'scope' in op);
    expect(scoped.map(([name]) => name)).toEqual(['reserveMedia']);
    for (const [, op] of scoped) {
      expect(await send(op, TEST_KEYS.aNoScope)).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN_SCOPE' },
      });
    }
  });
});
