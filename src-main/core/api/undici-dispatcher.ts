import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { registerSecret } from './redact';
import type { Http1Options } from './http1';

/** undici's request and the dispatcher to send it with: what ./transport.ts loads on first need. */
export interface Undici {
  readonly dispatcher: Dispatcher;
  readonly request: typeof request;
}

/**
 * undici's keep-alive agent (the same timeouts as ./http1.ts), or its proxy agent when a proxy is set: for requests through a proxy and for upload
 * PUTs (which stream a file as the body). Loaded by ./transport.ts only when one of those first happens, so that
 * a process that never needs it (an idle `postdesk executor`) never loads undici.
 */
async function createDispatcher(
  proxyUrl: string | null | undefined,
  timeouts: Http1Options,
  proxyPassword?: () => Promise<string | null>,
): Promise<Dispatcher> {
  const common = {
    keepAliveTimeout: timeouts.keepAliveMs,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connect: { timeout: timeouts.connectMs },
  };
  if (!proxyUrl) return new Agent(common);
  const u = new URL(proxyUrl);
  if (u.username && !u.password && proxyPassword) {
    // Without a password (none stored, no keychain) the proxy is asked without one and says so.
    const password = await proxyPassword().catch(() => null);
    registerSecret(password);
    if (password) u.password = encodeURIComponent(password);
  }
  return new ProxyAgent({ uri: u.toString(), ...common });
}

export async function loadUndici(
  proxyUrl: string | null | undefined,
  timeouts: Http1Options,
  proxyPassword?: () => Promise<string | null>,
): Promise<Undici> {
  return { dispatcher: await createDispatcher(proxyUrl, timeouts, proxyPassword), request };
}
