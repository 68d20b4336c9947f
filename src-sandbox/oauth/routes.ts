import {
  InvalidRequestError,
  UnsupportedGrantTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { apiKeyOwner, bearerToken } from '../auth';
import type { ApiKeyOwner } from '../auth';
import type { SandboxContext } from '../context';
import { authenticateClient, findClient, registerClient } from './clients';
import type { RegisteredClient } from './clients';
import { consentPage, refusalPage } from './consent-page';
import { OAuthError, sendOAuthError } from './errors';
import { S256_CHALLENGE, exchangeCode, issueCode, refreshTokens } from './grants';
import { resourceMetadata, serverMetadata } from './metadata';
import { redirectUriMatches } from './redirects';
import { OAUTH_PATHS, mcpResourceOf, originOf } from './urls';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const FORM_LIMIT = 64 * 1024;

/** The parameters of the authorization request that the consent form carries back. */
const REQUEST_FIELDS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;

/** A form's or a query's parameters, each once (RFC 6749 §3.1: none may be repeated). */
function paramsOf(input: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (input === null || typeof input !== 'object') return out;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new InvalidRequestError(`${key}: is given more than once`);
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

/** A form body kept as its pairs, repeated names as a list, so paramsOf can refuse them. */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}

const isForm = (req: FastifyRequest): boolean =>
  (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === FORM_TYPE;

/** Sends a page of this module: a fresh nonce for its one style element, no script, never framed. */
function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .send(render(nonce));
}

/** Sends the owner back to the client (RFC 6749 §4.1.2): the redirect URI with these parameters added. */
function redirectBack(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return reply.code(302).header('cache-control', 'no-store').header('location', url.href).send();
}

interface CheckedRequest {
  client: RegisteredClient;
  /** Where to send the owner back. */
  redirectUri: string;
  /** As the request named it, or '' when the registration's only one was taken. */
  givenRedirectUri: string;
  params: Record<string, string>;
}

/**
 * The first half of an authorization request: a client and a redirect URI of its own. Until both are
 * known nothing may be sent back to the redirect URI (RFC 6749 §4.1.2.1), so a failure is answered here.
 */
function checkClient(
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: SandboxContext,
  params: Record<string, string>,
): CheckedRequest | FastifyReply {
  const refuse = (message: string): FastifyReply =>
    (req.headers.accept ?? '').includes('text/html')
      ? sendPage(reply, 400, (nonce) => refusalPage(message, nonce))
      : sendOAuthError(reply, new InvalidRequestError(message));
  const clientId = params.client_id;
  if (!clientId) return refuse('client_id: is required');
  const client = findClient(ctx, clientId);
  if (!client) return refuse('client_id: no client is registered with this id');
  const given = params.redirect_uri;
  if (given === undefined) {
    if (client.redirectUris.length !== 1)
      return refuse('redirect_uri: is required, since this client registered several');
    return { client, redirectUri: client.redirectUris[0]!, givenRedirectUri: '', params };
  }
  if (!client.redirectUris.some((registered) => redirectUriMatches(given, registered)))
    return refuse('redirect_uri: is not one this client registered');
  return { client, redirectUri: given, givenRedirectUri: given, params };
}

/** The second half: an error here goes back to the client, with `state` (RFC 6749 §4.1.2.1). */
function requestProblem(
  req: FastifyRequest,
  ctx: SandboxContext,
  params: Record<string, string>,
): { error: string; error_description: string } | null {
  if (params.response_type !== 'code')
    return { error: 'unsupported_response_type', error_description: 'response_type: must be code' };
  if (!params.code_challenge)
    return { error: 'invalid_request', error_description: 'code_challenge: is required (PKCE with S256)' };
  if (params.code_challenge_method !== 'S256')
    return { error: 'invalid_request', error_description: 'code_challenge_method: must be S256' };
  if (!S256_CHALLENGE.test(params.code_challenge))
    return {
      error: 'invalid_request',
      error_description: 'code_challenge: must be a base64url sha256 (43 characters)',
    };
  const resource = mcpResourceOf(req, ctx);
  if (params.resource !== undefined && params.resource !== resource)
    return { error: 'invalid_target', error_description: `resource: this server grants ${resource} only` };
  return null;
}

function consentFields(checked: CheckedRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of REQUEST_FIELDS) {
    const value = checked.params[name];
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}

function showConsent(
  reply: FastifyReply,
  checked: CheckedRequest,
  status: number,
  error?: string,
): FastifyReply {
  const url = new URL(checked.redirectUri);
  const loopback = url.protocol === 'http:';
  return sendPage(reply, status, (nonce) =>
    consentPage(
      {
        clientName: checked.client.clientName,
        clientId: checked.client.clientId,
        redirectHost: url.host,
        loopback,
        fields: consentFields(checked),
        ...(error === undefined ? {} : { error }),
      },
      nonce,
    ),
  );
}

function grantCode(
  reply: FastifyReply,
  req: FastifyRequest,
  ctx: SandboxContext,
  checked: CheckedRequest,
  owner: ApiKeyOwner,
): FastifyReply {
  const { params } = checked;
  const code = issueCode(ctx, {
    client: checked.client,
    owner,
    redirectUri: checked.givenRedirectUri,
    codeChallenge: params.code_challenge!,
    resource: mcpResourceOf(req, ctx),
    scope: params.scope ?? null,
  });
  return redirectBack(reply, checked.redirectUri, { code, state: params.state });
}

/**
 * The authorization endpoint. GET shows the consent page, or, with `Authorization: Bearer <API key>` (for
 * scripts and tests), grants at once as if the owner had allowed it. POST is the consent form's answer.
 */
async function authorize(
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: SandboxContext,
  params: Record<string, string>,
  fromForm: boolean,
): Promise<FastifyReply> {
  const checked = checkClient(req, reply, ctx, params);
  if (!('client' in checked)) return checked;
  const problem = requestProblem(req, ctx, params);
  if (problem) return redirectBack(reply, checked.redirectUri, { ...problem, state: params.state });

  if (!fromForm) {
    const key = bearerToken(req);
    if (key === null) return showConsent(reply, checked, 200);
    const owner = apiKeyOwner(ctx, key);
    if (!('ownerId' in owner)) {
      return reply
        .code(401)
        .header('cache-control', 'no-store')
        .send({ error: 'access_denied', error_description: `Authorization: ${owner.message}` });
    }
    return grantCode(reply, req, ctx, checked, owner);
  }
  if (params.decision === 'deny') {
    return redirectBack(reply, checked.redirectUri, {
      error: 'access_denied',
      error_description: 'the owner denied the request',
      state: params.state,
    });
  }
  if (params.decision !== 'allow') return showConsent(reply, checked, 400, 'Choose Allow or Deny.');
  const owner = apiKeyOwner(ctx, params.api_key ?? '');
  if (!('ownerId' in owner)) {
    const why =
      params.api_key === undefined || params.api_key === ''
        ? 'Enter your API key to allow access.'
        : `That API key was not accepted: ${owner.message}.`;
    return showConsent(reply, checked, 401, why);
  }
  return grantCode(reply, req, ctx, checked, owner);
}

/**
 * A browser-based client (the MCP Inspector) reads the metadata and calls registration and token from its
 * own page: those answers may be read by any origin, as the MCP SDK's own handlers allow. None carries a
 * cookie or acts on one, and a token needs the code and its verifier, so no page gains anything by it.
 * The authorization endpoint is a navigation, and stays same-origin.
 */
const CORS_PATHS = [
  OAUTH_PATHS.resourceMetadata,
  OAUTH_PATHS.serverMetadata,
  OAUTH_PATHS.register,
  OAUTH_PATHS.token,
];

const allowAnyOrigin = (reply: FastifyReply): FastifyReply =>
  reply.header('access-control-allow-origin', '*');

/**
 * OAuth 2.0 for `/api/mcp` (docs/sandbox-agent.md, OAuth): the two discovery documents, and in a scope of
 * their own the registration, authorization and token endpoints, which read forms and answer OAuth errors.
 */
export function registerOAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get(OAUTH_PATHS.resourceMetadata, async (req, reply) => {
    allowAnyOrigin(reply);
    return resourceMetadata(originOf(req, ctx));
  });
  app.get(OAUTH_PATHS.serverMetadata, async (req, reply) => {
    allowAnyOrigin(reply);
    return serverMetadata(originOf(req, ctx));
  });
  for (const path of CORS_PATHS) {
    app.options(path, async (_req, reply) =>
      allowAnyOrigin(reply)
        .header('access-control-allow-methods', path.startsWith('/.well-known/') ? 'GET' : 'POST')
        .header('access-control-allow-headers', 'content-type, authorization, mcp-protocol-version')
        .header('access-control-max-age', '600')
        .code(204)
        .send(),
    );
  }

  void app.register(async (scope) => {
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, text, done) =>
      done(null, parseForm(String(text))),
    );
    scope.setErrorHandler((err, req, reply) => {
      // Errors of the registration and token endpoints are read by browser clients too.
      if (CORS_PATHS.includes(req.routeOptions.url as (typeof CORS_PATHS)[number])) allowAnyOrigin(reply);
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      throw err;
    });

    scope.post(OAUTH_PATHS.register, async (req, reply) => {
      const info = registerClient(ctx, req.body);
      return allowAnyOrigin(reply)
        .code(201)
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send(info);
    });

    scope.get(OAUTH_PATHS.authorize, async (req, reply) =>
      authorize(req, reply, ctx, paramsOf(req.query), false),
    );
    scope.post(OAUTH_PATHS.authorize, async (req, reply) => {
      if (!isForm(req)) throw new InvalidRequestError(`body: send the consent form as ${FORM_TYPE}`);
      return authorize(req, reply, ctx, paramsOf(req.body), true);
    });

    scope.post(OAUTH_PATHS.token, async (req, reply) => {
      if (!isForm(req)) throw new InvalidRequestError(`body: send ${FORM_TYPE} (RFC 6749 §4.1.3)`);
      const params = paramsOf(req.body);
      const client = authenticateClient(ctx, params, req.headers.authorization);
      let tokens;
      switch (params.grant_type) {
        case 'authorization_code':
          tokens = exchangeCode(ctx, client, params);
          break;
        case 'refresh_token':
          tokens = refreshTokens(ctx, client, params);
          break;
        case undefined:
          throw new InvalidRequestError('grant_type: is required');
        default:
          throw new UnsupportedGrantTypeError('grant_type: must be authorization_code or refresh_token');
      }
      return allowAnyOrigin(reply)
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send(tokens);
    });
  });
}
