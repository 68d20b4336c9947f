import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { registerAgentRoutes } from './agent/routes';
import { isLiveApiKey } from './auth';
import { SandboxClock, isClockTime } from './clock';
import { guardControlRequest, isLoopback, registerControlRoutes } from './control/routes';
import { createRequestLog, registerRequestLogRoutes } from './control/request-log';
import type { SandboxContext } from './context';
import { metaGet, metaSet, openDatabase } from './db';
import {
  ensurePrivateDirSync,
  makeTempDirSync,
  readTextFileSync,
  removePathSync,
} from '../src-main/core/files';
import { seedDemoContent } from './demo-content';
import { seedDemoDrafts } from './demo-drafts';
import { DEMO_API_KEY, DEMO_OWNER_ID, demoFixture } from './demo-fixture';
import type { ErrorCode } from '../src-shared/api/errors';
import { safeLine } from '../src-shared/safe-text';
import { InvalidJsonBody, SandboxError } from './errors';
import { createDueBeforeRead } from './due-before-read';
import { timeOrderedUuid } from './ids';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from './json-depth';
import { Faults, matchedPath, type FaultDecision } from './faults';
import { loadFixture } from './fixture';
import { isInnerMcpCall } from './inner-call';
import { registerMcp } from './mcp/server';
import { registerOAuthRoutes } from './oauth/routes';
import { registerMediaRoutes } from './media/routes';
import { expireReservations } from './media/service';
import { registerPostRoutes } from './posts/routes';
import { publishDue } from './posts/publisher';
import { registerBulkRoutes } from './posts/bulk-routes';
import { registerArticleRoutes } from './articles/routes';
import { registerAnalyticsRoutes } from './analytics/routes';
import { registerSkillRoutes } from './skills/routes';
import { registerLlmsTxt } from './llms-txt';

export interface StartSandboxOptions {
  port?: number;
  host?: string;
  /** Keep the database and objects here; without it a temporary directory, removed on close. */
  dataDir?: string;
  /** A fixture JSON file to load instead of the built-in demo fixture. */
  seedFile?: string;
  /** A fixture object to load instead of the built-in demo fixture. */
  fixture?: object;
  /** Also serve every route on this port (the alias host). */
  aliasPort?: number;
  quiet?: boolean;
}

export interface RunningSandbox {
  /** Where the sandbox is reached from this machine, and the base of the links it hands out. */
  url: string;
  /** The address actually bound, e.g. http://0.0.0.0:4010 with `--host 0.0.0.0`: what the listening line says. */
  listening: string;
  /** The same for the alias port, when there is one. */
  aliasListening: string | null;
  /** The demo key, or the first key of the first owner of a given fixture; null when there is none. */
  apiKey: string | null;
  ctx: SandboxContext;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    sandboxFault?: FaultDecision | null;
  }
}

const TICK_MS = 1000;
const BODY_LIMIT = 5 * 1024 * 1024;

const firstKeyOf = (fixture: object): string | null => {
  const owners = (fixture as { owners?: { api_keys?: { key?: unknown }[] }[] }).owners;
  const key = owners?.[0]?.api_keys?.[0]?.key;
  return typeof key === 'string' ? key : null;
};

/** `http://address:port` of a bound socket, as the operating system reports it. */
const boundUrl = (address: AddressInfo): string =>
  `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

const urlHost = (host: string): string => {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
};

/**
 * Routes whose contract names the shape of their 400: an unparsable JSON body answers in that shape
 * too, as a schema error there does (post creation `{error, issues}`, the named codes otherwise).
 */
const INVALID_BODY_ANSWERS: Readonly<Record<string, { code?: ErrorCode; issues?: true }>> = {
  'POST /api/cli/posts': { issues: true },
  'PATCH /api/cli/posts': { code: 'INVALID_POST_UPDATE' },
  'POST /api/agent/runs/:id/complete-local': { code: 'INVALID_RUN_OUTPUT' },
};

function invalidBodyAnswer(err: InvalidJsonBody, req: FastifyRequest): SandboxError {
  const answer = INVALID_BODY_ANSWERS[`${req.method} ${req.routeOptions.url ?? ''}`];
  if (answer?.issues) return new SandboxError(400, undefined, err.message, { body: err.reason });
  if (answer?.code) return new SandboxError(400, answer.code, err.message);
  return err;
}

/** Turns every thrown error into the service's `{error, code}` body, never echoing secrets or stacks. */
function errorHandler(
  err: FastifyError | SandboxError | Error,
  req: FastifyRequest,
  reply: FastifyReply,
  quiet: boolean,
): void {
  if (err instanceof InvalidJsonBody) {
    void reply.code(400).send(invalidBodyAnswer(err, req).body());
    return;
  }
  if (err instanceof SandboxError) {
    void reply.code(err.status).send(err.body());
    return;
  }
  const fe = err as FastifyError;
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    void reply
      .code(415)
      .send({ error: 'unsupported content-type: send application/json', code: 'VALIDATION_FAILED' });
    return;
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    void reply
      .code(413)
      .send({ error: `body: must be at most ${BODY_LIMIT} bytes`, code: 'VALIDATION_FAILED' });
    return;
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    void reply.code(fe.statusCode).send({ error: `body: ${fe.message}`, code: 'VALIDATION_FAILED' });
    return;
  }
  // The message may quote a request: shown safe (src-shared/safe-text.ts), it cannot drive the terminal.
  if (!quiet) console.error(`sandbox: internal error: ${safeLine(err.message)}`);
  void reply.code(500).send({ error: 'internal sandbox error', code: 'INTERNAL' });
}

/** Builds the Fastify app with every route; exported for tests that want no socket. */
export function buildApp(
  ctx: SandboxContext,
  deps: { faults: Faults; runTick(): void; runDue(): void; quiet: boolean },
): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, forceCloseConnections: 'idle' });
  const requests = createRequestLog();

  // Uploads (media PUTs, direct uploads) arrive as raw streams: hashed while written, never buffered.
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  // An empty JSON body (e.g. DELETE without a body) parses as undefined rather than failing.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_req, text, done) => {
      const s = String(text);
      if (s.trim() === '') return done(null, undefined);
      // Checked on the text, before any parser or handler recurses into the value.
      if (jsonDepthExceeds(s, MAX_JSON_DEPTH)) {
        return done(
          new InvalidJsonBody(`must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`),
          undefined,
        );
      }
      try {
        done(null, JSON.parse(s) as unknown);
      } catch {
        done(new InvalidJsonBody(), undefined);
      }
    },
  );

  app.setErrorHandler((err, req, reply) => errorHandler(err as Error, req, reply, deps.quiet));
  app.setNotFoundHandler((req, reply) => {
    void reply
      .code(404)
      .send({ error: `no route ${req.method} ${req.url.split('?')[0]}`, code: 'NOT_FOUND' });
  });

  // Both hooks run on every request: callback style, so a request that needs neither costs no promise.
  app.addHook('onRequest', (req, _reply, done) => {
    const query = req.url.indexOf('?');
    const path = query === -1 ? req.url : req.url.slice(0, query);
    requests.note(req.method, path);
    // The guard decides on the route the router matched (it decodes `%5F`, and may fold other spellings), never
    // on the raw URL: `/%5Fsandbox/reset` is the control route and is guarded as one (docs/security.md, Guards).
    if (isControlRoute(req.routeOptions.url)) {
      if (!isLoopback(req))
        throw new SandboxError(403, 'FORBIDDEN', 'the control API answers on loopback only');
      guardControlRequest(
        req,
        [ctx.publicBaseUrl(), ctx.aliasBaseUrl()].filter((u): u is string => Boolean(u)),
      );
    }
    // In real time the 1 s tick may lag; due deliveries and expiries are settled before a request reads them.
    if (path.startsWith('/api/cli/') && !ctx.clock.isVirtual) deps.runDue();
    // A tool's call to a REST route is part of its /api/mcp request, whose fault was decided already.
    // Faults too decide on the matched route, never the raw URL: `/api/cli/%70osts` is the posts route.
    const fault = isInnerMcpCall(req)
      ? null
      : deps.faults.decide(matchedPath(req.routeOptions.url, req.params));
    req.sandboxFault = fault;
    if (fault?.error)
      throw new SandboxError(503, 'SANDBOX_FAULT', 'injected fault: service unavailable, retry');
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    // The sandbox's own time (virtual once set or moved), as a service says its time: clients measure "now" by it.
    reply.header('date', ctx.clock.now().toUTCString());
    const fault = req.sandboxFault;
    if (!fault) return done(null, payload);
    const answer = (): void => {
      // The handler has run and committed; the client sees the connection die before any byte.
      if (fault.reset) reply.raw.socket?.destroy();
      done(null, payload);
    };
    if (fault.latencyMs > 0) setTimeout(answer, fault.latencyMs);
    else answer();
  });

  registerControlRoutes(app, ctx, deps);
  registerRequestLogRoutes(app, requests);
  registerPostRoutes(app, ctx);
  registerBulkRoutes(app, ctx);
  registerMediaRoutes(app, ctx);
  registerArticleRoutes(app, ctx);
  registerAnalyticsRoutes(app, ctx);
  registerSkillRoutes(app, ctx);
  registerLlmsTxt(app, ctx);
  registerAgentRoutes(app, ctx);
  registerMcp(app, ctx);
  registerOAuthRoutes(app, ctx);
  return app;
}

const isControlRoute = (route: string | undefined): boolean => route?.startsWith('/_sandbox/') ?? false;

/**
 * Puts a `--data` store's virtual clock back. A stored value the clock cannot show (written by an
 * older sandbox, or edited by hand) would make every request fail: the clock follows real time instead.
 */
function restoreClock(clock: SandboxClock, stored: string | null, quiet: boolean): void {
  if (!stored) return;
  const ms = /^\d{1,16}$/.test(stored) ? Number(stored) : Number.NaN;
  if (isClockTime(ms)) {
    clock.reset(new Date(ms));
    return;
  }
  if (!quiet) console.error('sandbox: the stored virtual clock is out of range; following real time');
  clock.reset();
}

/** Starts the sandbox: opens (or creates) the store, loads a fixture when the store is new, listens. */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const quiet = opts.quiet ?? false;
  const tempDir = opts.dataDir ? null : makeTempDirSync('postdesk-sandbox-');
  const dataDir = opts.dataDir ?? tempDir!;
  // It holds the upload-signing secret and every uploaded object: this user's only, whatever the umask.
  ensurePrivateDirSync(dataDir);
  const objectsDir = join(dataDir, 'objects');
  ensurePrivateDirSync(objectsDir);
  const db = openDatabase(dataDir, { persistent: opts.dataDir !== undefined });
  const clock = new SandboxClock();
  clock.onChange = (ms) => metaSet(db, 'clock_ms', ms === null ? '' : String(ms));
  restoreClock(clock, metaGet(db, 'clock_ms'), quiet);

  const tickFns: ((now: Date) => void)[] = [];
  let baseUrl = '';
  let aliasUrl: string | null = null;
  const ctx: SandboxContext = {
    db,
    clock,
    dataDir,
    objectsDir,
    publicBaseUrl: () => baseUrl,
    aliasBaseUrl: () => aliasUrl,
    onTick: (fn) => void tickFns.push(fn),
    uuid: () => timeOrderedUuid(),
  };
  const runTick = (): void => {
    const now = clock.now();
    for (const fn of tickFns) {
      try {
        fn(now);
      } catch (err) {
        if (!quiet)
          console.error(
            `sandbox: due work failed: ${safeLine(err instanceof Error ? err.message : String(err))}`,
          );
      }
    }
  };
  ctx.onTick((now) => {
    publishDue(ctx, now);
    expireReservations(ctx, now);
  });

  const faults = new Faults();
  const runDue = createDueBeforeRead(ctx, (now) => {
    publishDue(ctx, now);
    expireReservations(ctx, now);
  });
  const app = buildApp(ctx, { faults, runTick, runDue, quiet });

  // A new store gets a fixture; an existing `--data` store keeps everything it holds.
  let candidateKey: string | null = null;
  const seeded = metaGet(db, 'seeded');
  let demoDrafts = false;
  if (!seeded) {
    const fixture =
      opts.fixture ?? (opts.seedFile ? (JSON.parse(readTextFileSync(opts.seedFile)) as object) : null);
    loadFixture(ctx, fixture ?? demoFixture());
    if (!fixture) seedDemoContent(ctx, DEMO_OWNER_ID);
    demoDrafts = !fixture;
    metaSet(db, 'seeded', fixture ? 'fixture' : 'demo');
    candidateKey = fixture ? firstKeyOf(fixture) : DEMO_API_KEY;
  } else {
    // Only hashes are stored, so a restarted store can offer the demo key at most, and only while it
    // works: a reset with another fixture, a revocation or the clock passing its expiry takes it away.
    candidateKey = DEMO_API_KEY;
  }
  const apiKey = candidateKey !== null && isLiveApiKey(ctx, candidateKey) ? candidateKey : null;

  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 4010, host });
  const address = app.server.address() as AddressInfo;
  baseUrl = `http://${urlHost(host)}:${address.port}`;
  // Their media URLs name this address, so the demo's inbox drafts are made now, synchronously: before any
  // request is handled.
  if (demoDrafts) seedDemoDrafts(ctx, DEMO_OWNER_ID);
  const listening = boundUrl(address);
  let aliasListening: string | null = null;

  let alias: Server | null = null;
  if (opts.aliasPort !== undefined) {
    alias = createServer((req, res) => app.routing(req, res));
    await new Promise<void>((resolve, reject) => {
      alias!.once('error', reject);
      alias!.listen(opts.aliasPort, host, () => resolve());
    });
    const aliasAddress = alias.address() as AddressInfo;
    aliasUrl = `http://${urlHost(host)}:${aliasAddress.port}`;
    aliasListening = boundUrl(aliasAddress);
  }

  runTick();
  const timer = setInterval(() => {
    if (!clock.isVirtual) runTick();
  }, TICK_MS);
  timer.unref();

  const closeServers = async (): Promise<void> => {
    if (alias) {
      alias.closeIdleConnections();
      await new Promise<void>((resolve) => alias!.close(() => resolve()));
    }
    await app.close();
  };

  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      clearInterval(timer);
      // A keep-alive connection that was busy when closing began stays open after its answer, and
      // the server would wait for the client to drop it: close each one as soon as it falls idle.
      const sweep = setInterval(() => {
        app.server.closeIdleConnections();
        alias?.closeIdleConnections();
      }, 50);
      try {
        await closeServers();
      } finally {
        clearInterval(sweep);
      }
      db.close();
      if (tempDir) removePathSync(tempDir, { recursive: true });
    })();
    return closed;
  };

  return { url: baseUrl, listening, aliasListening, apiKey, ctx, close };
}
