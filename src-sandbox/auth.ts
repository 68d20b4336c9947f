import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { keptReads, stmt } from './db';
import { SandboxError } from './errors';

export interface ApiKeyOwner {
  ownerId: string;
  keyId: string;
}

/** Keys are stored as their sha256 only, so the database never holds a usable key. */
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

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
  const key = findKey(ctx, token);
  if (!key) throw unauthorized('invalid API key');
  if (key.revoked) throw unauthorized('this API key has been revoked');
  if (key.expires_at <= ctx.clock.now().toISOString()) throw unauthorized('this API key has expired');
  if (opts.scope) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.includes(opts.scope)) {
      throw new SandboxError(403, 'FORBIDDEN_SCOPE', `this API key lacks the scope ${opts.scope}`);
    }
  }
  return { ownerId: key.owner_id, keyId: key.id };
}

/** True when `key` would be accepted now (known, not revoked, not expired on the sandbox clock). */
export function isLiveApiKey(ctx: SandboxContext, key: string): boolean {
  const row = findKey(ctx, key);
  return row !== null && !row.revoked && row.expires_at > ctx.clock.now().toISOString();
}
