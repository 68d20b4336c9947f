import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '../../src-shared/api';
import { bearerToken, hashApiKey, requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';

/** Who called: a run token is bound to one run; an API key to an owner. */
export type Caller =
  | { readonly kind: 'runToken'; readonly ownerId: string; readonly runId: string }
  | { readonly kind: 'apiKey'; readonly ownerId: string; readonly keyId: string };

const RUN_TOKEN_PREFIX = 'pdrt_';

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Issues a run token; only its hash is stored, so a token is shown exactly once. */
export function issueRunToken(
  ctx: SandboxContext,
  ownerId: string,
  runId: string,
): { token: string; expiresAt: string } {
  const token = RUN_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + LIMITS.runTokenMs).toISOString();
  stmt(
    ctx.db,
    'INSERT INTO agent_run_tokens (token_hash, run_id, owner_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(sha256Hex(token), runId, ownerId, expiresAt, now.toISOString());
  return { token, expiresAt };
}

interface TokenRow {
  run_id: string;
  owner_id: string;
  expires_at: string;
}

/**
 * The run token in the Authorization header, if the header carries one the sandbox issued.
 * Throws 401 RUN_TOKEN_REQUIRED when it did issue it but it expired or belongs to another run, so a
 * stale token is never mistaken for an unknown API key.
 */
function runTokenCaller(ctx: SandboxContext, req: FastifyRequest, runId: string | null): Caller | null {
  const bearer = bearerToken(req);
  if (bearer === null) return null;
  const row = stmt(
    ctx.db,
    'SELECT run_id, owner_id, expires_at FROM agent_run_tokens WHERE token_hash = ?',
  ).get(sha256Hex(bearer)) as TokenRow | undefined;
  if (!row) return null;
  if (row.expires_at <= ctx.clock.now().toISOString()) {
    throw new SandboxError(
      401,
      'RUN_TOKEN_REQUIRED',
      'the run token has expired (run tokens are valid 6 hours)',
    );
  }
  if (runId !== null && row.run_id !== runId) {
    throw new SandboxError(401, 'RUN_TOKEN_REQUIRED', 'the run token is bound to another run');
  }
  return { kind: 'runToken', ownerId: row.owner_id, runId: row.run_id };
}

/** Operations that accept only a run token for this run. */
export function requireRunToken(ctx: SandboxContext, req: FastifyRequest, runId: string): Caller {
  const caller = runTokenCaller(ctx, req, runId);
  if (!caller) {
    throw new SandboxError(401, 'RUN_TOKEN_REQUIRED', 'this operation needs the run token returned by start');
  }
  return caller;
}

/** Operations that accept a run token (for this run, when `runId` is given) or an API key. */
export function requireRunTokenOrApiKey(
  ctx: SandboxContext,
  req: FastifyRequest,
  runId: string | null,
): Caller {
  const caller = runTokenCaller(ctx, req, runId);
  if (caller) return caller;
  const key = requireApiKey(req, ctx);
  return { kind: 'apiKey', ownerId: key.ownerId, keyId: key.keyId };
}

/** Opaque secrets (claim tokens) are returned once and stored as a hash. */
export function newSecret(prefix: string): { token: string; hash: string } {
  const token = prefix + randomBytes(24).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/**
 * Whether `key` is a current API key of `ownerId`: the YouTube parent-runner check, where the key
 * arrives in `x-service-runner-key` rather than in Authorization.
 */
export function isOwnersApiKey(ctx: SandboxContext, ownerId: string, key: string): boolean {
  const row = stmt(
    ctx.db,
    'SELECT owner_id FROM api_keys WHERE key_hash = ? AND revoked = 0 AND expires_at > ?',
  ).get(hashApiKey(key), ctx.clock.now().toISOString()) as { owner_id: string } | undefined;
  return row?.owner_id === ownerId;
}
