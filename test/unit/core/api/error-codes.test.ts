import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/core/api/client';
import { ApiError } from '../../../../src-main/core/api/errors';
import { toBridgeError } from '../../../../src-main/core/bridge/bridge-fault';
import { errorFacts, hasCode } from '../../../../src-main/core/executor/ports';
import { SandboxError } from '../../../../src-sandbox/errors';
import { isErrorCode } from '../../../../src-shared/api/errors';
import { startClientSandbox, type ClientSandbox } from '../../../helpers/client-sandbox';

/**
 * One list of error codes (`ErrorCode`, src-shared/api/errors.ts) types what the sandbox answers and what
 * the client acts on. `npm run typecheck` covers this file: each `@ts-expect-error` below must stay an error.
 */

let cs: ClientSandbox;
beforeAll(async () => {
  cs = await startClientSandbox('postdesk-error-codes-');
});
afterAll(async () => {
  await cs.close();
});

describe('error codes', () => {
  it('a code the sandbox answers with is the ErrorCode the client acts on', async () => {
    const err = await cs.client.getSkill('no-such-skill').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect([api.status, api.code, api.wireCode]).toEqual([404, 'NOT_FOUND', 'NOT_FOUND']);
    expect(hasCode(api, 'NOT_FOUND')).toBe(true);
    expect(hasCode(api, 'RUN_NOT_ACTIVE', 'CLAIM_CONFLICT')).toBe(false);
    expect(errorFacts(api).code).toBe('NOT_FOUND');
  });

  it('a code neither table lists is shown and recorded as sent, and never acted on', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'something new', code: 'SOMETHING_NEW' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'pd_test_unlisted_code_key',
      retry: { retries: 0 },
    });
    try {
      const err = (await client.getSkill('x').catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect([err.status, err.code, err.wireCode]).toEqual([409, null, 'SOMETHING_NEW']);
      expect(err.message).toContain('SOMETHING_NEW');
      expect(errorFacts(err).code).toBeUndefined();
      expect(toBridgeError(err)).toMatchObject({ kind: 'api', status: 409, code: 'SOMETHING_NEW' });
      expect(isErrorCode('SOMETHING_NEW')).toBe(false);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a misspelt code does not compile', () => {
    const api = new ApiError({
      status: 409,
      code: 'RUN_CONFLICT',
      message: 'conflict',
      operation: 'claimRun',
    });
    // @ts-expect-error: the sandbox answers only with codes of the one list
    const sandbox = new SandboxError(409, 'RUN_CONFLIKT', 'conflict');
    // @ts-expect-error: the executor asks only about codes of the one list
    const asked = hasCode(api, 'RUN_NOT_ACTIV');
    // @ts-expect-error: a comparison with a code of no list can never be true
    const compared = api.code === 'RUN_CONFLIKT';
    // The lines still run (types are erased); what they prove is that they needed the expect-error.
    expect([sandbox.code, asked, compared, api.code]).toEqual(['RUN_CONFLIKT', false, false, 'RUN_CONFLICT']);
  });
});
