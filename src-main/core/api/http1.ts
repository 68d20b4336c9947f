import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { nodeHttp, nodeHttps } from '../common/node-http';

/**
 * The service's JSON requests over Node's own HTTP/1.1 client, without a proxy (with one, and for upload PUTs,
 * undici: ./undici-dispatcher.ts). Node's client parses with the llhttp compiled into Node; undici runs llhttp as
 * WebAssembly, and V8's optimising compile of that module once it is hot, with undici's own code, kept about
 * 25 MiB resident in an idle `postdesk executor` (docs/bench.md, "The idle executor").
 *
 * Same timeouts as the undici agent, and its error codes for them (UND_ERR_CONNECT_TIMEOUT, …): the transport
 * classifies, retries and words a failure alike whichever client had it.
 */
export interface Http1Options {
  readonly keepAliveMs: number;
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export interface Http1Request {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The answer's head; the body is read apart, so that losing it is told from never being answered. */
export interface Http1Response {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: { text(): Promise<string> };
}

export interface Http1Client {
  request(url: string, req: Http1Request): Promise<Http1Response>;
  close(): Promise<void>;
}

const failure = (code: string, message: string): Error => Object.assign(new Error(message), { code });
const aborted = (signal: AbortSignal): Error =>
  Object.assign(new Error('the request was aborted'), {
    name: 'AbortError',
    code: 'ABORT_ERR',
    cause: signal.reason,
  });

/** The response's bytes as text; no byte may pause for longer than `bodyMs`. */
function readBody(res: IncomingMessage, bodyMs: number, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => res.destroy(failure('UND_ERR_BODY_TIMEOUT', 'the response body stalled')),
        bodyMs,
      );
    };
    const onAbort = () => res.destroy(aborted(signal as AbortSignal));
    const settle = (fn: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    if (signal?.aborted) return reject(aborted(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      arm();
    });
    res.once('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
    res.on('error', (err) => settle(() => reject(err)));
    // A socket closed before the end: Node marks the message incomplete and may emit no error of its own.
    res.once('close', () => {
      if (!res.complete) settle(() => reject(failure('UND_ERR_SOCKET', 'other side closed')));
    });
  });
}

export function createHttp1Client(opts: Http1Options): Http1Client {
  const agents = new Map<string, Agent>();
  /** One keep-alive pool per scheme; an idle socket closes after `keepAliveMs` and never holds the process. */
  const agentFor = (protocol: string): Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      const Make = protocol === 'https:' ? nodeHttps().Agent : nodeHttp().Agent;
      agent = new Make({ keepAlive: true, timeout: opts.keepAliveMs, scheduling: 'lifo' });
      agents.set(protocol, agent);
    }
    return agent;
  };

  function request(url: string, r: Http1Request): Promise<Http1Response> {
    return new Promise((resolve, reject) => {
      const u = new URL(url);
      const headers: Record<string, string> = { ...r.headers };
      if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
      let req: ClientRequest;
      let connectTimer: NodeJS.Timeout | undefined;
      let headersTimer: NodeJS.Timeout | undefined;
      let settled = false;
      const stopTimers = () => {
        clearTimeout(connectTimer);
        clearTimeout(headersTimer);
      };
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        stopTimers();
        r.signal?.removeEventListener('abort', onAbort);
        req.destroy();
        reject(err);
      };
      const onAbort = () => fail(aborted(r.signal as AbortSignal));
      if (r.signal?.aborted) return reject(aborted(r.signal));
      try {
        const send = u.protocol === 'https:' ? nodeHttps().request : nodeHttp().request;
        req = send(u, { method: r.method, headers, agent: agentFor(u.protocol) });
      } catch (err) {
        // An invalid header value or address: nothing was sent.
        return reject(err as Error);
      }
      r.signal?.addEventListener('abort', onAbort, { once: true });
      // Kept for the request's life: an error after the answer (fail ignores it) must not go unheard.
      req.on('error', fail);
      req.once('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(
          () => fail(failure('UND_ERR_CONNECT_TIMEOUT', `could not connect within ${opts.connectMs} ms`)),
          opts.connectMs,
        );
        socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      // From the last byte sent to the answer's head.
      req.once('finish', () => {
        headersTimer = setTimeout(
          () => fail(failure('UND_ERR_HEADERS_TIMEOUT', `no answer within ${opts.headersMs} ms`)),
          opts.headersMs,
        );
      });
      req.once('response', (res) => {
        if (settled) return void res.destroy();
        settled = true;
        stopTimers();
        r.signal?.removeEventListener('abort', onAbort);
        const text = readBody(res, opts.bodyMs, r.signal);
        // Read at once, so the socket goes back to the pool; a caller that never asks still sees no unhandled error.
        text.catch(() => undefined);
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: { text: () => text } });
      });
      req.end(r.body);
    });
  }

  return {
    request,
    close: async () => {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
