import {
  InvalidClientError,
  InvalidClientMetadataError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { invalidRedirectUri } from './errors';
import { redirectUriProblem } from './redirects';

/** How a client proves itself at the token endpoint. A public client (`none`) has PKCE alone, as all must. */
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const MAX_REDIRECT_URIS = 10;
const MAX_CLIENT_NAME = 200;

export interface RegisteredClient {
  clientId: string;
  clientName: string | null;
  authMethod: ClientAuthMethod;
  redirectUris: string[];
  secretHash: string | null;
}

const sha256 = (text: string): string => hash('sha256', text, 'hex');

const isAuthMethod = (m: string): m is ClientAuthMethod =>
  (CLIENT_AUTH_METHODS as readonly string[]).includes(m);

/**
 * Dynamic client registration (RFC 7591). The metadata is read with the MCP SDK's schema; the sandbox adds
 * its rules: at least one redirect URI, each https or loopback http; only the code and refresh grants; a
 * method from CLIENT_AUTH_METHODS (RFC 7591 §2: `client_secret_basic` when none is named). A secret is made
 * for the methods that use one, and kept as its sha256.
 */
export function registerClient(ctx: SandboxContext, body: unknown): OAuthClientInformationFull {
  const parsed = OAuthClientMetadataSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw new InvalidClientMetadataError(`${field}: ${issue?.message ?? 'is not valid client metadata'}`);
  }
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0) throw invalidRedirectUri('redirect_uris: at least one is required');
  if (meta.redirect_uris.length > MAX_REDIRECT_URIS)
    throw invalidRedirectUri(`redirect_uris: at most ${MAX_REDIRECT_URIS}`);
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw invalidRedirectUri(problem);
  }
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!isAuthMethod(method)) {
    throw new InvalidClientMetadataError(
      `token_endpoint_auth_method: must be one of ${CLIENT_AUTH_METHODS.join(', ')}`,
    );
  }
  const grantTypes = meta.grant_types ?? ['authorization_code'];
  const unknownGrant = grantTypes.find((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (unknownGrant !== undefined)
    throw new InvalidClientMetadataError(`grant_types: must be among ${GRANT_TYPES.join(', ')}`);
  if ((meta.response_types ?? ['code']).some((t) => t !== 'code'))
    throw new InvalidClientMetadataError('response_types: only "code" is supported');
  if (meta.client_name !== undefined && meta.client_name.length > MAX_CLIENT_NAME)
    throw new InvalidClientMetadataError(`client_name: must be at most ${MAX_CLIENT_NAME} characters`);

  const clientId = `pdc_${randomBytes(18).toString('base64url')}`;
  const secret = method === 'none' ? undefined : `pdcs_${randomBytes(32).toString('base64url')}`;
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  const info: OAuthClientInformationFull = {
    ...meta,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: ['code'],
    client_id: clientId,
    client_id_issued_at: issuedAt,
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
  };
  const stored: Record<string, unknown> = { ...info };
  delete stored.client_secret;
  stmt(
    ctx.db,
    `INSERT INTO oauth_clients (client_id, secret_hash, auth_method, client_name, redirect_uris, metadata, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    clientId,
    secret === undefined ? null : sha256(secret),
    method,
    meta.client_name ?? null,
    JSON.stringify(meta.redirect_uris),
    JSON.stringify(stored),
    ctx.clock.now().toISOString(),
  );
  return info;
}

interface ClientRow {
  client_id: string;
  secret_hash: string | null;
  auth_method: string;
  client_name: string | null;
  redirect_uris: string;
}

/** A registered client, or null when `clientId` names none. */
export function findClient(ctx: SandboxContext, clientId: string): RegisteredClient | null {
  const row = stmt(
    ctx.db,
    'SELECT client_id, secret_hash, auth_method, client_name, redirect_uris FROM oauth_clients WHERE client_id = ?',
  ).get(clientId) as ClientRow | undefined;
  if (!row) return null;
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    authMethod: isAuthMethod(row.auth_method) ? row.auth_method : 'client_secret_basic',
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    secretHash: row.secret_hash,
  };
}

const sameHash = (secret: string, expectedHash: string): boolean => {
  const got = Buffer.from(sha256(secret), 'hex');
  const want = Buffer.from(expectedHash, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
};

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1: each part form-encoded). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}

/**
 * The client of a token request, authenticated as it registered: by `client_id` alone (public), with
 * `client_secret` in the body, or with Basic. Anything else answers `invalid_client` (401).
 */
export function authenticateClient(
  ctx: SandboxContext,
  params: Readonly<Record<string, string>>,
  authorization: string | undefined,
): RegisteredClient {
  const basic = basicCredentials(authorization);
  const clientId = basic?.id ?? params.client_id;
  if (clientId === undefined || clientId === '')
    throw new InvalidClientError('client_id: is required (in the body, or with Basic authentication)');
  if (basic && params.client_id !== undefined && params.client_id !== basic.id)
    throw new InvalidClientError('client_id: differs from the one in Basic authentication');
  const client = findClient(ctx, clientId);
  if (!client) throw new InvalidClientError('client_id: no client is registered with this id');
  const secret = client.authMethod === 'client_secret_basic' ? basic?.secret : params.client_secret;
  if (client.authMethod === 'none') {
    if (basic || params.client_secret !== undefined)
      throw new InvalidClientError('this client registered as public (token_endpoint_auth_method none)');
    return client;
  }
  if (secret === undefined || client.secretHash === null || !sameHash(secret, client.secretHash))
    throw new InvalidClientError(`client authentication failed (${client.authMethod})`);
  return client;
}
