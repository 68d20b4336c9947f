import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyOwner } from '../auth';
import { OAUTH_ACCESS_TOKEN_PREFIX, bearerToken, requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import { accessTokenOwner } from './grants';
import { OAUTH_PATHS, mcpResourceOf, originOf } from './urls';

/**
 * The bearer check of `/api/mcp`: an OAuth access token minted for this resource, or an API key as before.
 * A refusal is the sandbox's 401 `UNAUTHORIZED` with the challenge of the MCP authorization spec,
 * `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 §5.1), from which a client starts discovery;
 * `error="invalid_token"` when a token was sent (RFC 6750 §3.1).
 */
export function requireMcpCaller(req: FastifyRequest, reply: FastifyReply, ctx: SandboxContext): ApiKeyOwner {
  const token = bearerToken(req);
  try {
    if (token?.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
      const found = accessTokenOwner(ctx, token, mcpResourceOf(req, ctx));
      if ('problem' in found) throw new SandboxError(401, 'UNAUTHORIZED', found.problem);
      return found.owner;
    }
    return requireApiKey(req, ctx);
  } catch (err) {
    if (err instanceof SandboxError && err.status === 401) {
      const metadata = `${originOf(req, ctx)}${OAUTH_PATHS.resourceMetadata}`;
      const error = token === null ? '' : ', error="invalid_token"';
      void reply.header('www-authenticate', `Bearer resource_metadata="${metadata}"${error}`);
    }
    throw err;
  }
}
