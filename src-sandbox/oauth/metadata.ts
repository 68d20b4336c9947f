import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLIENT_AUTH_METHODS, GRANT_TYPES } from './clients';
import { MCP_PATH, OAUTH_PATHS } from './urls';

/** RFC 9728: what the MCP server is and which authorization server issues its tokens (the sandbox itself). */
export const resourceMetadata = (origin: string): OAuthProtectedResourceMetadata => ({
  resource: `${origin}${MCP_PATH}`,
  authorization_servers: [origin],
  bearer_methods_supported: ['header'],
  resource_name: 'Postdesk sandbox MCP server',
});

/** RFC 8414: the authorization server's endpoints and what it supports (the issuer is the origin). */
export const serverMetadata = (origin: string): OAuthMetadata => ({
  issuer: origin,
  authorization_endpoint: `${origin}${OAUTH_PATHS.authorize}`,
  token_endpoint: `${origin}${OAUTH_PATHS.token}`,
  registration_endpoint: `${origin}${OAUTH_PATHS.register}`,
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: [...GRANT_TYPES],
  token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
  code_challenge_methods_supported: ['S256'],
});
