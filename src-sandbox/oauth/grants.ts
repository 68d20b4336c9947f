import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyOwner } from '../auth';
import { OAUTH_ACCESS_TOKEN_PREFIX, liveKeyById } from '../auth';
import type { SandboxContext } from '../context';
import { stmt, transact } from '../db';
import type { RegisteredClient } from './clients';

/** Lifetimes on the sandbox clock, so a test moves past them with `/_sandbox/clock`. */
export const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const REFRESH_TOKEN_PREFIX = 'pdrt_';
const CODE_PREFIX = 'pdac_';

const sha256 = (text: string): string => hash('sha256', text, 'hex');
const secret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** A S256 challenge: base64url of a sha256, 43 characters without padding. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface CodeRequest {
  client: RegisteredClient;
  owner: ApiKeyOwner;
  /** The redirect URI as the authorization request named it, or '' when it left it to the registration. */
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string | null;
}

/** Issues a one-time authorization code for an owner's consent; a new grant begins with it. */
export function issueCode(ctx: SandboxContext, req: CodeRequest): string {
  const code = secret(CODE_PREFIX);
  stmt(
    ctx.db,
    `INSERT INTO oauth_codes (code_hash, grant_id, client_id, owner_id, key_id, redirect_uri, code_challenge,
       resource, scope, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    sha256(code),
    ctx.uuid(),
    req.client.clientId,
    req.owner.ownerId,
    req.owner.keyId,
    req.redirectUri,
    req.codeChallenge,
    req.resource,
    req.scope,
    new Date(ctx.clock.now().getTime() + CODE_TTL_MS).toISOString(),
  );
  return code;
}

interface GrantOf {
  grant_id: string;
  client_id: string;
  owner_id: string;
  key_id: string;
  resource: string;
  scope: string | null;
}

/** Ends every token of a grant: its code was used twice, or a rotated refresh token came back. */
function revokeGrant(ctx: SandboxContext, grantId: string): void {
  stmt(ctx.db, 'UPDATE oauth_tokens SET revoked = 1 WHERE grant_id = ?').run(grantId);
}

/** An access token and a refresh token for a grant (RFC 6749 §5.1). */
function issueTokens(ctx: SandboxContext, grant: GrantOf): OAuthTokens {
  const now = ctx.clock.now().getTime();
  const access = secret(OAUTH_ACCESS_TOKEN_PREFIX);
  const refresh = secret(REFRESH_TOKEN_PREFIX);
  const insert = stmt(
    ctx.db,
    `INSERT INTO oauth_tokens (token_hash, kind, grant_id, client_id, owner_id, key_id, resource, scope,
       expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const row = (token: string, kind: 'access' | 'refresh', ttl: number): void => {
    insert.run(
      sha256(token),
      kind,
      grant.grant_id,
      grant.client_id,
      grant.owner_id,
      grant.key_id,
      grant.resource,
      grant.scope,
      new Date(now + ttl).toISOString(),
      new Date(now).toISOString(),
    );
  };
  row(access, 'access', ACCESS_TOKEN_TTL_MS);
  row(refresh, 'refresh', REFRESH_TOKEN_TTL_MS);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refresh,
    ...(grant.scope ? { scope: grant.scope } : {}),
  };
}

/** The key behind a grant must still be usable: revoking or expiring it ends what it granted. */
function requireLiveKey(ctx: SandboxContext, keyId: string): void {
  const owner = liveKeyById(ctx, keyId);
  if (!('ownerId' in owner))
    throw new InvalidGrantError(`the API key this access was granted with no longer works: ${owner.message}`);
}

/** RFC 8707 §2.2: a `resource` on the token request must be the one the grant was given for. */
function requireSameResource(requested: string | undefined, granted: string): void {
  if (requested !== undefined && requested !== granted)
    throw new InvalidTargetError(`resource: this grant is for ${granted}`);
}

function verifierMatches(verifier: string, challenge: string): boolean {
  const got = Buffer.from(hash('sha256', verifier, 'base64url'));
  const want = Buffer.from(challenge);
  return got.length === want.length && timingSafeEqual(got, want);
}

interface CodeRow extends GrantOf {
  redirect_uri: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * The authorization-code grant (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6). A code is good once: presented
 * again, it answers `invalid_grant` and revokes every token it gave (RFC 6749 §4.1.2).
 */
export function exchangeCode(
  ctx: SandboxContext,
  client: RegisteredClient,
  params: Readonly<Record<string, string>>,
): OAuthTokens {
  const { code, code_verifier: verifier, redirect_uri: redirectUri, resource } = params;
  if (!code) throw new InvalidRequestError('code: is required');
  if (!verifier) throw new InvalidRequestError('code_verifier: is required (PKCE)');
  if (!VERIFIER.test(verifier))
    throw new InvalidRequestError('code_verifier: must be 43 to 128 letters, digits or "-._~"');
  // A refusal is returned from the transaction, not thrown in it: a revocation it made must be kept.
  const answer = transact(ctx.db, (): OAuthTokens | Error => {
    const row = stmt(
      ctx.db,
      `SELECT grant_id, client_id, owner_id, key_id, resource, scope, redirect_uri, code_challenge, expires_at, used_at
       FROM oauth_codes WHERE code_hash = ?`,
    ).get(sha256(code)) as CodeRow | undefined;
    if (!row || row.client_id !== client.clientId)
      throw new InvalidGrantError('code: unknown, or issued to another client');
    if (row.used_at !== null) {
      revokeGrant(ctx, row.grant_id);
      return new InvalidGrantError('code: was already used; the tokens it gave are revoked');
    }
    if (row.expires_at <= ctx.clock.now().toISOString()) throw new InvalidGrantError('code: has expired');
    if (row.redirect_uri !== '' && redirectUri !== row.redirect_uri)
      throw new InvalidGrantError('redirect_uri: must be the one of the authorization request');
    if (!verifierMatches(verifier, row.code_challenge))
      throw new InvalidGrantError('code_verifier: does not match the code_challenge');
    requireSameResource(resource, row.resource);
    requireLiveKey(ctx, row.key_id);
    stmt(ctx.db, 'UPDATE oauth_codes SET used_at = ? WHERE code_hash = ?').run(
      ctx.clock.now().toISOString(),
      sha256(code),
    );
    return issueTokens(ctx, row);
  });
  if (answer instanceof Error) throw answer;
  return answer;
}

interface TokenRow extends GrantOf {
  kind: 'access' | 'refresh';
  expires_at: string;
  revoked: number;
}

const tokenRow = (ctx: SandboxContext, token: string): TokenRow | undefined =>
  stmt(
    ctx.db,
    `SELECT kind, grant_id, client_id, owner_id, key_id, resource, scope, expires_at, revoked
     FROM oauth_tokens WHERE token_hash = ?`,
  ).get(sha256(token)) as TokenRow | undefined;

/**
 * The refresh grant (RFC 6749 §6). Refresh tokens rotate: each use revokes the one presented and answers
 * a new pair. A revoked refresh token presented again means it was copied, so the whole grant ends
 * (OAuth 2.1 §4.3.1).
 */
export function refreshTokens(
  ctx: SandboxContext,
  client: RegisteredClient,
  params: Readonly<Record<string, string>>,
): OAuthTokens {
  const { refresh_token: token, resource } = params;
  if (!token) throw new InvalidRequestError('refresh_token: is required');
  const answer = transact(ctx.db, (): OAuthTokens | Error => {
    const row = tokenRow(ctx, token);
    if (!row || row.kind !== 'refresh' || row.client_id !== client.clientId)
      throw new InvalidGrantError('refresh_token: unknown, or issued to another client');
    if (row.revoked) {
      revokeGrant(ctx, row.grant_id);
      return new InvalidGrantError('refresh_token: was already used or revoked; this grant is ended');
    }
    if (row.expires_at <= ctx.clock.now().toISOString())
      throw new InvalidGrantError('refresh_token: has expired');
    requireSameResource(resource, row.resource);
    requireLiveKey(ctx, row.key_id);
    stmt(ctx.db, 'UPDATE oauth_tokens SET revoked = 1 WHERE token_hash = ?').run(sha256(token));
    return issueTokens(ctx, row);
  });
  if (answer instanceof Error) throw answer;
  return answer;
}

/**
 * The owner an access token acts for at `resource`, or why it cannot: unknown, revoked, expired, minted for
 * another resource (RFC 8707), or its API key revoked or expired since.
 */
export function accessTokenOwner(
  ctx: SandboxContext,
  token: string,
  resource: string,
): { owner: ApiKeyOwner } | { problem: string } {
  const row = tokenRow(ctx, token);
  if (!row || row.kind !== 'access') return { problem: 'invalid access token' };
  if (row.revoked) return { problem: 'this access token has been revoked' };
  if (row.expires_at <= ctx.clock.now().toISOString()) return { problem: 'this access token has expired' };
  if (row.resource !== resource)
    return { problem: `this access token was issued for another resource (${row.resource})` };
  const owner = liveKeyById(ctx, row.key_id);
  if (!('ownerId' in owner))
    return { problem: `the API key behind this access token no longer works: ${owner.message}` };
  return { owner };
}
