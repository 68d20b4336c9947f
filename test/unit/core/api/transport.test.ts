import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
} from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/core/api/client';
import { ApiError, NetworkError } from '../../../../src-main/core/api/errors';

/**
 * A scripted HTTP server: each request is answered by the next step of the script (the last step repeats).
 * The sandbox cannot send Retry-After or fail on cue, so these transport rules are tested against this one.
 */
type Step = (req: IncomingMessage, res: ServerResponse) => void;
interface Scripted {
  url: string;
  /** Each request as it arrived, with the client port of its connection and the body's length in bytes. */
  hits: { method: string; path: string; headers: IncomingMessage['headers']; port: number; bytes: number }[];
  close(): Promise<void>;
}
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function scripted(steps: Step[]): Promise<Scripted> {
  const hits: Scripted['hits'] = [];
  const server: Server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      const step = steps[Math.min(hits.length, steps.length - 1)]!;
      hits.push({
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        port: req.socket.remotePort!,
        bytes,
      });
      step(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const s = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  servers.push(s);
  return s;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const reset: Step = (req) => req.socket.destroy();
const ACCOUNTS = json(200, { accounts: [] });
const CREATED = json(201, {
  post: { id: 'p1', caption: 'c', created_at: '2030-01-01T00:00:00Z' },
  social_posts: [],
});
const POST = {
  caption: 'c',
  targets: [{ platform: 'x' as const, social_account_id: '11111111-1111-4111-8111-000000000005' }],
};
const KEY = 'pd_transport_test_key_abcdef123456';
const fast = { retries: 3, minTimeoutMs: 5, maxTimeoutMs: 10 };

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

describe('retries follow the operation policy', () => {
  it('a safe read is retried after 503 and connection resets', async () => {
    const s = await scripted([json(503, { error: 'busy', code: 'SANDBOX_FAULT' }), reset, ACCOUNTS]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    await expect(c.listAccounts()).resolves.toEqual({ accounts: [] });
    expect(s.hits).toHaveLength(3);
    await c.close();
  });

  it('honours Retry-After before the next attempt', async () => {
    const s = await scripted([json(429, { error: 'slow down' }, { 'retry-after': '1' }), ACCOUNTS]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const t0 = Date.now();
    await c.listAccounts();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(s.hits).toHaveLength(2);
    await c.close();
  });

  it('a never-retry create is sent once on 503 and once on a reset, which may have committed', async () => {
    const s = await scripted([json(503, { error: 'busy' })]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const e = await c.createPost(POST).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(503);
    expect(s.hits).toHaveLength(1);

    const r = await scripted([reset]);
    const c2 = createApiClient({ baseUrl: r.url, apiKey: KEY, retry: fast });
    const e2 = await c2.createPost(POST).catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(NetworkError);
    expect((e2 as NetworkError).maybeCommitted).toBe(true);
    expect(r.hits).toHaveLength(1);
    await Promise.all([c.close(), c2.close()]);
  });

  it('4xx other than 429 is never retried, even for reads', async () => {
    const s = await scripted([json(404, { error: 'nope', code: 'NOT_FOUND' })]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const e = (await c.getSkill('x').catch((x: unknown) => x)) as ApiError;
    expect([e.status, e.code, e.operation]).toEqual([404, 'NOT_FOUND', 'getSkill']);
    expect(s.hits).toHaveLength(1);
    await c.close();
  });

  it('a connection refused before anything was sent is safe even for a create: it is retried, then reported as not committed', async () => {
    const c = createApiClient({ baseUrl: await closedPort(), apiKey: KEY, retry: fast });
    const e = (await c.createPost(POST).catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect([e.kind, e.causeCode, e.maybeCommitted]).toEqual(['connect', 'ECONNREFUSED', false]);
    await c.close();
  });
});

describe('hosts and credentials', () => {
  it('falls back to the alias host when the base host refuses connections, then sticks to it', async () => {
    const alias = await scripted([CREATED]);
    const c = createApiClient({ baseUrl: await closedPort(), aliasUrl: alias.url, apiKey: KEY, retry: fast });
    await expect(c.createPost(POST)).resolves.toMatchObject({ post: { id: 'p1' } });
    await c.listAccounts().catch(() => undefined);
    expect(alias.hits.map((h) => h.method)).toEqual(['POST', 'GET']);
    await c.close();
  });

  it('attaches each credential where the credential table says', async () => {
    const s = await scripted([json(200, {})]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    await c.request('listSkills').catch(() => undefined);
    await c.request('listAccounts').catch(() => undefined);
    await c
      .request('reserveRunMedia', {
        params: { id: 'r1' },
        runToken: 'pdrt_run_token_1234567',
        body: {
          content_type: 'image/png',
          content_length: 1,
          content_sha256: 'a'.repeat(64),
          content_md5: 'a'.repeat(32),
        },
      })
      .catch(() => undefined);
    await c
      .request('directUpload', {
        params: { id: 'r1' },
        runToken: 'pdrt_run_token_1234567',
        runnerKey: true,
        body: {
          social_account_id: POST.targets[0]!.social_account_id,
          title: 't',
          content_type: 'video/mp4',
          content_length: 1,
          content_sha256: 'a'.repeat(64),
        },
      })
      .catch(() => undefined);
    const auth = s.hits.map((h) => [
      h.headers.authorization ?? null,
      h.headers['x-service-runner-key'] ?? null,
    ]);
    expect(auth).toEqual([
      [null, null],
      [`Bearer ${KEY}`, null],
      ['Bearer pdrt_run_token_1234567', null],
      ['Bearer pdrt_run_token_1234567', KEY],
    ]);
    // A response that breaks the contract is an error, not silently accepted data.
    const bad = (await c.listAccounts().catch((x: unknown) => x)) as ApiError;
    expect(bad.code).toBe('INVALID_RESPONSE');
    await c.close();
  });

  it('an error body echoing the key never shows it', async () => {
    const s = await scripted([
      (req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: `bad key ${req.headers.authorization}`,
            code: 'UNAUTHORIZED',
            issues: { key: req.headers.authorization },
          }),
        );
      },
    ]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const e = (await c.listAccounts().catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(401);
    for (const t of [e.message, String(e), JSON.stringify(e), e.stack ?? '']) expect(t).not.toContain(KEY);
    await c.close();
  });

  it('goes through a proxy when one is set', async () => {
    let connects = 0;
    const target = await scripted([ACCOUNTS]);
    const proxy: TcpServer = createTcpServer((client) => {
      client.once('data', (head) => {
        const m = /^CONNECT ([^ ]+) /.exec(head.toString());
        if (!m) return client.destroy();
        connects++;
        const [host, port] = m[1]!.split(':');
        const upstream = connect(Number(port), host!, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.pipe(client).pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise<void>((r) => proxy.close(() => r())) });
    const c = createApiClient({
      baseUrl: target.url,
      apiKey: KEY,
      proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      retry: fast,
    });
    await expect(c.listAccounts()).resolves.toEqual({ accounts: [] });
    expect(connects).toBe(1);
    expect(target.hits).toHaveLength(1);
    await c.close();
  });
});

/**
 * Without a proxy the JSON requests go through Node's own client (src-main/core/api/http1.ts), which keeps
 * undici's timeouts and error codes: each failure below is classified as it was with undici.
 */
describe("timeouts and connections of Node's client", () => {
  const once = { retries: 0 };
  const never: Step = () => undefined;

  it('no answer within the headers timeout is a timeout that may have committed', async () => {
    const s = await scripted([never]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: once, timeouts: { headersMs: 200 } });
    const e = (await c.createPost(POST).catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect([e.kind, e.causeCode, e.maybeCommitted]).toEqual(['timeout', 'UND_ERR_HEADERS_TIMEOUT', true]);
    await c.close();
  });

  it('a body that stalls past the body timeout is a lost body', async () => {
    const s = await scripted([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"accounts":');
      },
    ]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: once, timeouts: { bodyMs: 200 } });
    const e = (await c.listAccounts().catch((x: unknown) => x)) as NetworkError;
    expect([e.kind, e.causeCode, e.maybeCommitted]).toEqual(['timeout', 'UND_ERR_BODY_TIMEOUT', true]);
    expect(e.message).toContain('response body lost');
    await c.close();
  });

  it('a connection closed in the middle of the body is a reset', async () => {
    const s = await scripted([
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"accounts":', () => req.socket.destroy());
      },
    ]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: once });
    const e = (await c.listAccounts().catch((x: unknown) => x)) as NetworkError;
    expect(e).toBeInstanceOf(NetworkError);
    expect([e.kind, e.maybeCommitted]).toEqual(['reset', true]);
    await c.close();
  });

  it('an aborted signal ends the request at once, with its reason', async () => {
    const s = await scripted([never]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const t0 = Date.now();
    const signal = AbortSignal.timeout(150);
    const e = await c.listAccounts({ signal }).catch((x: unknown) => x);
    // The caller's own reason, not a network failure to retry or report.
    expect(e).toBe(signal.reason);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(s.hits).toHaveLength(1);
    await c.close();
  });

  it('sends the exact byte length of a body with characters beyond ASCII, and keeps one connection alive', async () => {
    const s = await scripted([CREATED]);
    const c = createApiClient({ baseUrl: s.url, apiKey: KEY, retry: fast });
    const post = { ...POST, caption: 'café ☕ 👋' };
    for (let i = 0; i < 3; i++) await c.createPost(post);
    expect(s.hits.map((h) => Number(h.headers['content-length']))).toEqual(s.hits.map((h) => h.bytes));
    expect(s.hits[0]!.bytes).toBeGreaterThan(JSON.stringify(post).length);
    expect(new Set(s.hits.map((h) => h.port)).size).toBe(1);
    await c.close();
  });
});
