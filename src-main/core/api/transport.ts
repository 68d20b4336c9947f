import type { Dispatcher } from 'undici';
import type { RetryPolicy } from '../../../src-shared/api/operations';
import { ErrorBody } from '../../../src-shared/api/error-body';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import { retry } from '../common/retry';
import { ApiError, NetworkError, type NetworkErrorKind } from './errors';
import { createHttp1Client, type Http1Options, type Http1Request, type Http1Response } from './http1';
import { registerSecret } from './redact';
import type { ServiceClock } from './service-clock';
import type { Undici } from './undici-dispatcher';

export interface RetryOptions {
  retries?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** A `Retry-After` longer than this is cut to it. */
  maxRetryAfterMs?: number;
}

export interface TimeoutOptions {
  connectMs?: number;
  headersMs?: number;
  bodyMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  aliasUrl?: string | null;
  proxyUrl?: string | null;
  /**
   * The password of `proxyUrl`'s user, kept out of the setting (in the keychain). Read once, when the
   * first request goes out, like a lazily read API key.
   */
  proxyPassword?: () => Promise<string | null>;
  retry?: RetryOptions;
  timeouts?: TimeoutOptions;
  userAgent?: string;
  /** Where each retry is noted (debug): the CLI shows them with --verbose. */
  log?: Logger;
  /** Learns the service's time from each answer's `Date` header. */
  clock?: ServiceClock;
}

export interface TransportRequest {
  readonly operation: string;
  readonly policy: RetryPolicy;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with parameters filled in and the query string appended. */
  readonly pathAndQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The origin that answered: the base host or the alias. */
  readonly origin: string;
}

/** How long the client keeps using the alias after the base host failed to connect. */
const ALIAS_STICKY_MS = 60_000;

/** Errors that happen before any request byte can have left this machine: always safe to repeat. */
const BEFORE_SEND_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const KIND_BY_CODE: Record<string, NetworkErrorKind> = {
  ECONNREFUSED: 'connect',
  EHOSTUNREACH: 'connect',
  ENETUNREACH: 'connect',
  EADDRNOTAVAIL: 'connect',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_ABORTED: 'aborted',
  ABORT_ERR: 'aborted',
};

interface Classified {
  code: string | null;
  kind: NetworkErrorKind;
  beforeSend: boolean;
  message: string;
}

function errorCode(err: unknown): string | null {
  if (err === null || typeof err !== 'object') return null;
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown; name?: unknown };
  if (typeof e.code === 'string') return e.code;
  // Happy-eyeballs connects fail with an AggregateError of per-address errors.
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause) return errorCode(e.cause);
  if (e.name === 'AbortError') return 'ABORT_ERR';
  return null;
}

function classify(err: unknown): Classified {
  const code = errorCode(err);
  const message = errorText(err) || code || 'error';
  return {
    code,
    kind: (code && KIND_BY_CODE[code]) || 'other',
    beforeSend: code !== null && BEFORE_SEND_CODES.has(code),
    message,
  };
}

export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Whether a failure of an operation with this policy may be sent again. */
export function isRetryable(error: unknown, policy: RetryPolicy): boolean {
  if (error instanceof NetworkError) {
    if (error.kind === 'aborted') return false;
    if (!error.maybeCommitted) return true;
    return policy !== 'never';
  }
  if (error instanceof ApiError) {
    if (policy === 'never') return false;
    return error.status === 429 || (error.status >= 500 && error.status !== 501);
  }
  return false;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function trimOrigin(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * A dispatcher to hand out at once (for upload PUTs, which undici sends) that waits for the real one, made when
 * it is first asked for. undici's `request` only calls `dispatch` on it; closing it closes the real one if made.
 */
function lazyDispatcher(real: () => Promise<Dispatcher>, made: () => Promise<Dispatcher> | null): Dispatcher {
  let ready: Dispatcher | null = null;
  const lazy = {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      if (ready) return ready.dispatch(options, handler);
      void real().then((d) => (ready = d).dispatch(options, handler));
      return true;
    },
    close: async () => (await made())?.close(),
    destroy: async () => (await made())?.destroy(),
  };
  // undici types a dispatcher as its class; its request path uses `dispatch` alone.
  return lazy as unknown as Dispatcher;
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportResponse>;
  /** undici's, for raw requests such as upload PUTs; the JSON requests go through ./http1.ts unless proxied. */
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly aliasUrl: string | null;
  close(): Promise<void>;
}

export function createTransport(opts: TransportOptions): Transport {
  const baseUrl = trimOrigin(opts.baseUrl);
  const aliasUrl = opts.aliasUrl ? trimOrigin(opts.aliasUrl) : null;
  const timeouts: Http1Options = {
    keepAliveMs: 10_000,
    connectMs: opts.timeouts?.connectMs ?? 10_000,
    headersMs: opts.timeouts?.headersMs ?? 60_000,
    bodyMs: opts.timeouts?.bodyMs ?? 120_000,
  };
  // Known as a secret from the start, so no error can show it, even before the proxy is first used.
  if (opts.proxyUrl) registerSecret(decodeURIComponent(new URL(opts.proxyUrl).password));
  let undici: Promise<Undici> | null = null;
  const useUndici = () =>
    (undici ??= import('./undici-dispatcher').then((m) =>
      m.loadUndici(opts.proxyUrl, timeouts, opts.proxyPassword),
    ));
  const dispatcher = lazyDispatcher(
    async () => (await useUndici()).dispatcher,
    () => undici && undici.then((u) => u.dispatcher),
  );
  // Without a proxy, the service's JSON requests go through Node's own client (./http1.ts says why).
  const http1 = opts.proxyUrl ? null : createHttp1Client(timeouts);
  const exchange = async (url: string, r: Http1Request) => {
    if (http1) return http1.request(url, r);
    const u = await useUndici();
    return u.request(url, { ...r, dispatcher: u.dispatcher });
  };
  const retries = opts.retry?.retries ?? 4;
  const minTimeout = opts.retry?.minTimeoutMs ?? 250;
  const maxTimeout = opts.retry?.maxTimeoutMs ?? 8_000;
  const maxRetryAfter = opts.retry?.maxRetryAfterMs ?? 60_000;
  const userAgent = opts.userAgent ?? 'postdesk';
  const log = opts.log ?? silentLogger;
  let aliasUntil = 0;

  function hostsInOrder(): string[] {
    if (!aliasUrl) return [baseUrl];
    return Date.now() < aliasUntil ? [aliasUrl, baseUrl] : [baseUrl, aliasUrl];
  }

  async function attempt(req: TransportRequest): Promise<TransportResponse> {
    const hosts = hostsInOrder();
    for (let i = 0; i < hosts.length; i++) {
      const origin = hosts[i] as string;
      let res: Http1Response | Dispatcher.ResponseData;
      try {
        res = await exchange(origin + req.pathAndQuery, {
          method: req.method,
          headers: { 'user-agent': userAgent, accept: 'application/json', ...req.headers },
          body: req.body,
          signal: req.signal,
        });
      } catch (err) {
        const c = classify(err);
        if (c.beforeSend && i < hosts.length - 1) {
          // Connection-level failure of one host: the other serves the same paths.
          aliasUntil = hosts[i + 1] === aliasUrl ? Date.now() + ALIAS_STICKY_MS : 0;
          continue;
        }
        throw new NetworkError({
          kind: c.kind,
          causeCode: c.code,
          causeMessage: c.message,
          maybeCommitted: !c.beforeSend,
          operation: req.operation,
          host: new URL(origin).host,
        });
      }
      let text: string;
      try {
        text = await res.body.text();
      } catch (err) {
        const c = classify(err);
        throw new NetworkError({
          kind: c.kind === 'other' ? 'reset' : c.kind,
          causeCode: c.code,
          causeMessage: `response body lost: ${c.message}`,
          maybeCommitted: true,
          operation: req.operation,
          host: new URL(origin).host,
        });
      }
      opts.clock?.learn(res.headers.date, Date.now());
      const out: TransportResponse = { status: res.statusCode, headers: res.headers, text, origin };
      if (res.statusCode >= 400) throw toApiError(out, req.operation);
      return out;
    }
    throw new Error('unreachable: no host to try');
  }

  return {
    dispatcher,
    baseUrl,
    aliasUrl,
    send(req) {
      return retry(() => attempt(req), {
        attempts: retries + 1,
        minDelayMs: minTimeout,
        maxDelayMs: maxTimeout,
        signal: req.signal,
        shouldRetry: (error) => isRetryable(error, req.policy),
        // The service's Retry-After comes first; the backoff follows it.
        onRetry: async (error, attempt) => {
          log.debug(`${req.operation}: try ${attempt} failed, trying again`, { error: errorText(error) });
          if (error instanceof ApiError && error.retryAfterMs !== null)
            await sleep(Math.min(error.retryAfterMs, maxRetryAfter), req.signal);
        },
      });
    },
    async close() {
      await Promise.all([http1?.close(), (await undici)?.dispatcher.close()]);
    },
  };
}

function toApiError(res: TransportResponse, operation: string): ApiError {
  let parsed: ErrorBody | null = null;
  try {
    const r = ErrorBody.safeParse(JSON.parse(res.text));
    if (r.success) parsed = r.data;
  } catch {
    parsed = null;
  }
  const fallback = res.text.trim().slice(0, 200) || `HTTP ${res.status}`;
  return new ApiError({
    status: res.status,
    code: parsed?.code ?? null,
    message: parsed?.error ?? fallback,
    issues: parsed?.issues,
    operation,
    retryAfterMs: parseRetryAfter(res.headers['retry-after']),
  });
}
