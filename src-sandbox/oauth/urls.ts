import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';

/** The MCP server's path: the one protected resource of the sandbox. */
export const MCP_PATH = '/api/mcp';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  /** RFC 8414 §3: the authorization server's metadata, at the root (the issuer has no path). */
  serverMetadata: '/.well-known/oauth-authorization-server',
  /** RFC 9728 §3.1: the resource's metadata, with the resource's path after the well-known name. */
  resourceMetadata: `/.well-known/oauth-protected-resource${MCP_PATH}`,
  /** The same document where a client that ignores the path looks for it. */
  resourceMetadataRoot: '/.well-known/oauth-protected-resource',
} as const;

/** `host[:port]` as a Host header may carry it: a name or IPv4 address, or an IPv6 literal in brackets. */
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the client addressed: issuer, resource and every link follow it, so the main port, the alias
 * port and a `--host 0.0.0.0` sandbox reached by another name each describe themselves. A token is bound to
 * the resource of the origin it was minted at (RFC 8707), so it is refused at another one.
 */
export function originOf(req: FastifyRequest, ctx: SandboxContext): string {
  const host = req.headers.host;
  return typeof host === 'string' && HOST_HEADER.test(host) ? `http://${host}` : ctx.publicBaseUrl();
}

/** The resource indicator of the MCP server at the origin the request addressed. */
export const mcpResourceOf = (req: FastifyRequest, ctx: SandboxContext): string =>
  `${originOf(req, ctx)}${MCP_PATH}`;
