import {
  CustomOAuthError,
  InvalidClientError,
  OAuthError,
  ServerError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { FastifyReply } from 'fastify';

/**
 * OAuth errors are the MCP SDK's classes: each carries its RFC 6749 (or RFC 7591, RFC 8707) `error` code and
 * answers `{error, error_description}`. The status: 401 for a client that failed to authenticate (RFC 6749
 * §5.2), 500 for the server's own failure, 400 for the rest.
 */
export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  const status = err instanceof InvalidClientError ? 401 : err instanceof ServerError ? 500 : 400;
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (status === 401) void reply.header('www-authenticate', 'Basic realm="postdesk-sandbox"');
  return reply.code(status).send(err.toResponseObject());
}

/** RFC 7591 §3.2.2: a redirect URI the server does not accept. */
export const invalidRedirectUri = (message: string): OAuthError =>
  new CustomOAuthError('invalid_redirect_uri', message);

export { OAuthError };
