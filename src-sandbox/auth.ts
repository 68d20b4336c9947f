import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { keptReads, stmt } from './db';
import { SandboxError } from './errors';
import { innerCallerOf } from './inner-call';

export interface ApiKeyOwner {
  ownerId: string;
  keyId: string;
}

/** Keys are stored as their sha256 only, so the database never holds a usable key. */
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

/**
 * How an OAuth access token starts (oauth/grants.ts mints them). They are good at `/api/mcp` only, so a
 * REST route that sees one says so instead of calling it an invalid API key.
 */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'pdat_';

const unauthorized = (message: string): SandboxError => new SandboxError(401, 'UNAUTHORIZED', message);

/** The bearer token of the request, or null when there is no `Authorization: Bearer` header. */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

interface KeyRow {
  id: string;
  owner_id: string;
  scopes: string;
  expires_at: string;
  revoked: number;
}

/**
 * Looks an API key up; null when it is unknown. Does not check expiry or revocation. Every request reads its
 * key and keys change only when a fixture is loaded, so what was read is kept by hash (keptReads: emptied
 * on any write to `api_keys`); unknown keys too, for a client retrying a wrong one.
 */
function findKey(ctx: SandboxContext, token: string): KeyRow | null {
  const hash = hashApiKey(token);
  const kept = keptReads<KeyRow | null>(ctx.db, 'api_keys');
  const known = kept.get(hash);
  if (known !== undefined) return known;
  const row =
    (stmt(ctx.db, 'SELECT id, owner_id, scopes, expires_at, revoked FROM api_keys WHERE key_hash = ?').get(
      hash,
    ) as KeyRow | undefined) ?? null;
  kept.set(hash, row);
  return row;
}

function keyById(ctx: SandboxContext, id: string): KeyRow | null {
  return (
    (stmt(ctx.db, 'SELECT id, owner_id, scopes, expires_at, revoked FROM api_keys WHERE id = ?').get(id) as
      KeyRow | undefined) ?? null
  );
}

/** Why a key row cannot be used now (revoked, expired, lacking the scope), as the 401 or 403 to answer. */
function keyProblem(ctx: SandboxContext, key: KeyRow, scope: string | undefined): SandboxError | null {
  if (key.revoked) return unauthorized('this API key has been revoked');
  if (key.expires_at <= ctx.clock.now().toISOString()) return unauthorized('this API key has expired');
  if (scope !== undefined && !(JSON.parse(key.scopes) as string[]).includes(scope)) {
    return new SandboxError(403, 'FORBIDDEN_SCOPE', `this API key lacks the scope ${scope}`);
  }
  return null;
}

/**
 * The owner of the API key with this id, when the key is usable now; otherwise the 401 it would answer.
 * OAuth grants name the key their owner signed in with and follow it: revoked or expired, they end.
 */
export function liveKeyById(ctx: SandboxContext, keyId: string): ApiKeyOwner | SandboxError {
  const key = keyById(ctx, keyId);
  if (!key) return unauthorized('the API key of this grant no longer exists');
  return keyProblem(ctx, key, undefined) ?? { ownerId: key.owner_id, keyId: key.id };
}

/** The owner of an API key given by other means than the header (the OAuth consent form), or why not. */
export function apiKeyOwner(ctx: SandboxContext, apiKey: string): ApiKeyOwner | SandboxError {
  const key = apiKey === '' ? null : findKey(ctx, apiKey);
  if (!key) return unauthorized('invalid API key');
  return keyProblem(ctx, key, undefined) ?? { ownerId: key.owner_id, keyId: key.id };
}

/**
 * Checks `Authorization: Bearer <API key>`. Missing, invalid, expired or revoked keys answer 401
 * `UNAUTHORIZED`; `x-api-key` alone is rejected the same way. A key without a required scope answers
 * 403 `FORBIDDEN_SCOPE`. Messages never echo the key.
 */
export function requireApiKey(
  req: FastifyRequest,
  ctx: SandboxContext,
  opts: { scope?: 'media:write' } = {},
): ApiKeyOwner {
  const token = bearerToken(req);
  if (token === null) {
    if (req.headers['x-api-key'] !== undefined) {
      throw unauthorized('the x-api-key header is not accepted; send Authorization: Bearer <API key>');
    }
    throw unauthorized('missing API key: send Authorization: Bearer <API key>');
  }
  // A tool of /api/mcp calling this route for its caller, whose credential (an API key or an OAuth token)
  // was checked there; the key behind it is checked again here, with the route's scope.
  const inner = innerCallerOf(req, token);
  const key = inner ? keyById(ctx, inner.keyId) : findKey(ctx, token);
  if (!key) {
    if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
      throw unauthorized('an OAuth access token is accepted at /api/mcp only: this route takes an API key');
    }
    throw unauthorized('invalid API key');
  }
  const problem = keyProblem(ctx, key, opts.scope);
  if (problem) throw problem;
  return { ownerId: key.owner_id, keyId: key.id };
}

/** True when `key` would be accepted now (known, not revoked, not expired on the sandbox clock). */
export function isLiveApiKey(ctx: SandboxContext, key: string): boolean {
  const row = findKey(ctx, key);
  return row !== null && !row.revoked && row.expires_at > ctx.clock.now().toISOString();
}
