/**
 * An OAuthClientProvider for tests (the MCP SDK's client interface), kept in memory, whose "browser" is a
 * fetch of the authorization URL with the owner's API key as bearer: the sandbox then answers 302 to the
 * redirect URI as if the owner had allowed it (docs/sandbox-agent.md, OAuth).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export interface Redirected {
  location: URL;
  code: string | null;
  state: string | null;
  error: string | null;
}

export class TestOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** What the last authorization request answered. */
  redirected: Redirected | null = null;
  readonly lastState = 'state-' + Math.random().toString(36).slice(2);

  constructor(
    /** The API key the scripted "owner" signs in with; null leaves the authorization URL unvisited. */
    private readonly apiKey: string | null,
    readonly redirectUrl: string = 'http://127.0.0.1:53682/callback',
    private readonly extra: Partial<OAuthClientMetadata> = {},
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Contract test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.extra,
    };
  }
  state(): string {
    return this.lastState;
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.apiKey === null) return;
    const res = await fetch(url, { headers: { authorization: `Bearer ${this.apiKey}` }, redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || location === null)
      throw new Error(`authorization answered ${res.status}: ${await res.text()}`);
    const back = new URL(location);
    this.redirected = {
      location: back,
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      error: back.searchParams.get('error'),
    };
  }
}
