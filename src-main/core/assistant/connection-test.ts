import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AssistantTest } from '../../../src-shared/ipc/assistant';
import { errorText } from '../common/error-text';

/**
 * "Test the connection" for the sandbox: the MCP SDK's own client goes through the whole OAuth flow an AI
 * client would (discovery, registration, authorization, token), then lists the tools. The consent is given
 * with the sandbox's bearer shortcut: the authorization request carries the API key, and the sandbox answers
 * with the code at once (docs/sandbox-agent.md, OAuth). Loaded by `import()` only (it loads the SDK).
 */
class OneShotProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  code: string | null = null;
  readonly redirectUrl = 'http://127.0.0.1:9/postdesk-connection-test';

  constructor(
    private readonly apiKey: string,
    /** Where the person connected: the only origin the key may go to (docs/security.md, Destinations). */
    private readonly origin: string,
    private readonly step: (line: string) => void,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Postdesk connection test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
    this.step('Registered as a client (dynamic client registration).');
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
    this.step(
      `Got an access token (valid ${Math.round((tokens.expires_in ?? 0) / 60)} minutes) and a refresh token.`,
    );
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    // The authorization address comes from the server's metadata, that is from the network: the key goes with it
    // only when it is the address the person connected to, never to a host the metadata names.
    if (url.origin !== this.origin) {
      throw new Error(
        `the server sent authorization to another address (${url.origin}); your API key was not sent there`,
      );
    }
    const res = await fetch(url, { headers: { authorization: `Bearer ${this.apiKey}` }, redirect: 'manual' });
    const location = res.headers.get('location');
    const back = location ? new URL(location) : null;
    this.code = back?.searchParams.get('code') ?? null;
    if (!this.code) {
      throw new Error(
        `the authorization request was not granted (${back?.searchParams.get('error') ?? res.status})`,
      );
    }
    this.step('Authorized with your API key (as if you had allowed it on the consent page).');
  }
}

export async function testAssistantConnection(
  mcpUrl: string,
  apiKey: string,
  version: string,
): Promise<AssistantTest> {
  const steps: string[] = [];
  const step = (line: string) => void steps.push(line);
  const provider = new OneShotProvider(apiKey, new URL(mcpUrl).origin, step);
  try {
    // What every client meets first: a 401 whose challenge names the resource metadata (RFC 9728).
    const bare = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await bare.body?.cancel();
    const metadata = /resource_metadata="([^"]+)"/.exec(bare.headers.get('www-authenticate') ?? '')?.[1];
    if (bare.status !== 401 || !metadata) {
      throw new Error(
        `without a token the server answered ${bare.status}, with no OAuth metadata to start from`,
      );
    }
    step(`Asked ${mcpUrl} without a token: 401, pointing to ${metadata}.`);
    if ((await auth(provider, { serverUrl: mcpUrl })) !== 'REDIRECT' || !provider.code) {
      throw new Error('the server did not ask for authorization');
    }
    await auth(provider, { serverUrl: mcpUrl, authorizationCode: provider.code });
    const client = new Client({ name: 'postdesk-connection-test', version });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      step(`Connected with the token: the server offers ${tools.length} tools.`);
      return { ok: true, steps, tools: tools.map((t) => t.name).sort(), error: null };
    } finally {
      await client.close();
    }
  } catch (error) {
    return { ok: false, steps, tools: [], error: errorText(error) };
  }
}
