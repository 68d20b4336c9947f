import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src-sandbox/json-depth';
import { IDS, TEST_KEYS, startTestSandbox, type TestSandbox } from '../helpers/sandbox';

/**
 * A body nested thousands of levels deep (in a free-form member such as `settings` or `metadata`)
 * must not crash a handler into a 500 or echo an internal message ("Maximum call stack size
 * exceeded"): every route answers it as the invalid body it is, with a 400.
 */

const DEPTH = 20_000;
/** `{"a":{"a":…1…}}`, `DEPTH` objects deep, as raw JSON text (JSON.stringify would overflow first). */
const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function sendRaw(path: string, body: string, key: string = TEST_KEYS.a, method = 'POST') {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** The answer is a 400 in the route's error shape and says nothing of the engine's internals. */
function expectRefused(res: { status: number; text: string }, shape: 'code' | 'issues' = 'code'): void {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.text).not.toMatch(/call stack|RangeError|stack size|INTERNAL/i);
  const body = JSON.parse(res.text) as { error: string; code?: string; issues?: Record<string, string> };
  expect(body.error).toMatch(/nested|deep/);
  if (shape === 'issues') expect(Object.keys(body.issues ?? {})).toEqual(['body']);
}

const target = `{"social_account_id":"${IDS.accounts.x}","platform":"x","settings":${deep}}`;

describe('deeply nested JSON bodies', () => {
  it('post creation answers 400 {error, issues}, not 500', async () => {
    expectRefused(
      await sendRaw('/api/cli/posts', `{"caption":"c","action":"draft","targets":[${target}]}`),
      'issues',
    );
  });

  it('post update answers 400 INVALID_POST_UPDATE', async () => {
    const res = await sendRaw('/api/cli/posts', `{"id":"x","add_targets":[${target}]}`, TEST_KEYS.a, 'PATCH');
    expectRefused(res);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'INVALID_POST_UPDATE' });
  });

  it('bulk answers 400 VALIDATION_FAILED', async () => {
    const res = await sendRaw(
      '/api/cli/posts/bulk',
      `{"batch_id":"6f1c0a52-8f7e-4b8e-9d3a-0b1c2d3e4f50","items":[{"item_key":"k","caption":"c","action":"draft","targets":[${target}]}]}`,
    );
    expectRefused(res);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await sb.control.state()).bulk_items).toBe(0);
  });

  it('run events and fail answer 400 VALIDATION_FAILED, and the run stays usable', async () => {
    const startRes = await sb.api('POST', `/api/agent/automations/${IDS.automation}/start`, {
      body: {
        executor_id: IDS.executor,
        revision: 1,
        idempotency_key: `${IDS.automation}:1:2030-01-01T12:00:00.000Z`,
        scheduled_for: '2030-01-01T12:00:00.000Z',
      },
    });
    expect(startRes.status, startRes.text).toBe(200);
    const { run, run_token } = startRes.body as { run: { id: string }; run_token: string };
    const event = await sendRaw(
      `/api/agent/runs/${run.id}/events`,
      `{"step_id":"s","status":"info","metadata":${deep}}`,
      run_token,
    );
    expectRefused(event);
    expect(JSON.parse(event.text)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const fail = await sendRaw(
      `/api/agent/runs/${run.id}/fail`,
      `{"error":"e","metadata":${deepArray}}`,
      run_token,
    );
    expectRefused(fail);
    const fine = await sb.api('POST', `/api/agent/runs/${run.id}/fail`, {
      key: run_token,
      body: { error: 'e', metadata: { a: { b: { c: 1 } } } },
    });
    expect(fine.status, fine.text).toBe(200);
  });

  it('MCP answers 400 VALIDATION_FAILED instead of echoing the stack overflow', async () => {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_post","arguments":{"caption":"c","action":"draft","targets":[${target}]}}}`;
    const res = await sendRaw('/api/mcp', call);
    expectRefused(res);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('the limit is exact: the whole body may nest MAX_JSON_DEPTH levels, not one more', async () => {
    // The body, `targets` and the target take 3 levels; `settings` holds the rest.
    const settingsOf = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const body = (levels: number) =>
      `{"caption":"c","action":"draft","targets":[{"social_account_id":"${IDS.accounts.x}","platform":"x","settings":${settingsOf(levels)}}]}`;
    const atLimit = await sendRaw('/api/cli/posts', body(MAX_JSON_DEPTH - 3));
    expect(atLimit.status, atLimit.text).toBe(201);
    expectRefused(await sendRaw('/api/cli/posts', body(MAX_JSON_DEPTH - 2)), 'issues');
    // Brackets inside strings are text, not nesting.
    const inString = await sendRaw(
      '/api/cli/posts',
      `{"caption":"${'[{'.repeat(200)}\\"","action":"draft","targets":[{"social_account_id":"${IDS.accounts.x}","platform":"x"}]}`,
    );
    expect(inString.status, inString.text).toBe(201);
  });

  it('ordinary nesting still passes', async () => {
    const settings = JSON.stringify({ a: { b: { c: { d: { e: { f: [1, [2, [3]]] } } } } } });
    const res = await sendRaw(
      '/api/cli/posts',
      `{"caption":"c","action":"draft","targets":[{"social_account_id":"${IDS.accounts.x}","platform":"x","settings":${settings}}]}`,
    );
    expect(res.status, res.text).toBe(201);
  });
});
