import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  NetworkError,
  REDACTED,
  ValidationError,
  redact,
  redactDeep,
  registerSecret,
  toFieldIssue,
} from '../../../../src-main/core/api/errors';
import { CreatePostRequest } from '../../../../src-shared/api/posts';
import { MediaReservationRequest } from '../../../../src-shared/api/media';

const KEY = 'pd_live_unit_test_key_0123456789abcdef';

/** Every way an error can be turned into text. */
function renderings(err: Error): string[] {
  return [err.message, String(err), err.toString(), JSON.stringify(err), inspect(err), err.stack ?? ''];
}

describe('redact', () => {
  it('scrubs registered secrets and credential-shaped text', () => {
    registerSecret(KEY);
    expect(redact(`key=${KEY} again ${KEY}`)).toBe(`key=${REDACTED} again ${REDACTED}`);
    expect(redact('Authorization: Bearer abc.def-123')).not.toContain('abc.def-123');
    expect(redact('x-service-runner-key: sekret-runner-1')).not.toContain('sekret-runner-1');
    expect(redact('{"run_token":"pdrt_zzz","claim_token":"pdct_yyy"}')).not.toMatch(/pdrt_zzz|pdct_yyy/);
    expect(redact('http://user:hunter22@proxy.local:3128/')).not.toContain('hunter22');
    expect(redact('nothing to hide here')).toBe('nothing to hide here');
  });

  it('leaves user data that merely looks like a credential alone in data mode', () => {
    const caption = 'Bearer of good news: x-api-key: none';
    expect(redactDeep({ caption: `${caption} ${KEY}` }, 'data')).toEqual({
      caption: `${caption} ${REDACTED}`,
    });
  });

  it('blanks secret-named keys in objects', () => {
    const out = redactDeep({ run_token: 'abc', nested: { claim_token: 't', note: `has ${KEY}` }, ok: 1 });
    expect(out).toEqual({
      run_token: REDACTED,
      nested: { claim_token: REDACTED, note: `has ${REDACTED}` },
      ok: 1,
    });
  });
});

describe('errors never carry a credential', () => {
  registerSecret(KEY);

  it('ApiError: message, toString, JSON, inspect and stack', () => {
    const err = new ApiError({
      status: 401,
      code: 'UNAUTHORIZED',
      message: `key ${KEY} is not valid (Authorization: Bearer ${KEY})`,
      issues: { authorization: `Bearer ${KEY}`, field: `echo ${KEY}` },
      operation: 'listAccounts',
    });
    for (const text of renderings(err)) expect(text).not.toContain(KEY);
    expect(err.status).toBe(401);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('NetworkError and ValidationError', () => {
    const n = new NetworkError({
      kind: 'reset',
      causeCode: 'ECONNRESET',
      causeMessage: `socket hang up sending Bearer ${KEY}`,
      maybeCommitted: true,
      operation: 'createPost',
      host: 'example.test',
    });
    const v = new ValidationError([{ path: 'caption', message: `contains ${KEY}` }], 'createPost');
    for (const e of [n, v]) for (const text of renderings(e)) expect(text).not.toContain(KEY);
    expect(n.maybeCommitted).toBe(true);
  });
});

describe('validation messages name the field and the limit', () => {
  it('caption length, targets, date-time, hashes, upload size', () => {
    const r = CreatePostRequest.safeParse({
      caption: 'x'.repeat(2201),
      targets: [],
      scheduled_at: 'tomorrow',
    });
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map(toFieldIssue);
    expect(issues).toContainEqual({ path: 'caption', message: 'must be at most 2200 characters' });
    expect(issues).toContainEqual({ path: 'targets', message: 'must be at least 1 item' });
    expect(issues.find((i) => i.path === 'scheduled_at')?.message).toMatch(/ISO 8601/);

    const m = MediaReservationRequest.safeParse({
      content_type: 'image/png',
      content_length: 16 * 1024 * 1024,
      content_sha256: 'nothex',
      content_md5: 'a'.repeat(32),
    });
    const mi = m.error!.issues.map(toFieldIssue);
    expect(mi.find((i) => i.path === 'content_sha256')?.message).toContain('^[a-f0-9]{64}$');

    const big = MediaReservationRequest.safeParse({
      content_type: 'image/png',
      content_length: 16 * 1024 * 1024,
      content_sha256: 'a'.repeat(64),
      content_md5: 'a'.repeat(32),
    });
    expect(big.error!.issues.map(toFieldIssue)[0]).toEqual({
      path: 'content_length',
      message: expect.stringContaining('15728640'),
    });
  });

  it('ValidationError.fromZod lists every issue in its message', () => {
    const e = ValidationError.fromZod(
      z.object({ a: z.string().max(3), b: z.number().min(2) }).safeParse({ a: 'abcd', b: 1 }).error!,
      'op',
    );
    expect(e.message).toBe('invalid input for op: a: must be at most 3 characters; b: must be at least 2');
    expect(e.issues).toHaveLength(2);
  });
});
