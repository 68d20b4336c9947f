import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyError } from 'fastify';
import { fail, ok } from '../../../src-shared/ipc/bridge-error';
import {
  ClientMessage,
  MEDIA_PATH,
  SESSION_PATH,
  SessionRequest,
  WS_PATH,
  type ServerMessage,
  type SessionGrant,
} from '../../../src-shared/ipc/ws-protocol';
import { LIMITS } from '../../../src-shared/api/limits';
import type { BridgeDispatcher } from '../../core/bridge/dispatcher';
import type { MediaRegistry } from '../../core/bridge/media-registry';
import type { GrantRegistry } from '../../core/bridge/grants';
import { errorText } from '../../core/common/error-text';
import type { Logger } from '../../core/common/logger';
import { registerUploadRoute } from './upload-route';
import { registerDownloadRoute } from './download-route';
import type { DownloadShelf } from '../../core/bridge/host-ports';
import { contentSecurityPolicy } from '../../host/csp';
import { guardRequests } from './http-guard';
import { registerMediaPreviews, registerRenderer } from './file-routes';
import { ensurePrivateDir } from '../../core/files';

export interface WebHostOptions {
  readonly dispatcher: BridgeDispatcher;
  readonly media: MediaRegistry;
  /** Where uploads are granted (`upload-route.ts`). */
  readonly grants: GrantRegistry;
  /** The built renderer (`vite build --config vite.web.config.ts` → out/web). */
  readonly staticDir: string;
  /** Where uploaded files' bytes are kept (private, 0700) while the host runs. */
  readonly stagingDir: string;
  /** Exports waiting for the browser to fetch them (`download-route.ts`). */
  readonly downloads?: DownloadShelf;
  /**
   * The session secret, made with `createLaunchSecret()`: the page's WebSocket and previews carry it.
   * It is never printed nor put in a URL to open; a page gets it by trading a link's one-time code.
   */
  readonly secret: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly maxFileBytes?: number;
  /** Where a request that failed inside the host (answered 500) is reported. */
  readonly log?: Logger;
}

export interface WebHost {
  readonly port: number;
  readonly origin: string;
  /**
   * A fresh link to the page, `<origin>/#code=<one-time code>` (a fragment is never sent to a server).
   * The page trades the code for the session secret; the code is useless after that, and after
   * `ttlMs` when one is given.
   */
  newLink(opts?: { readonly ttlMs?: number }): string;
  /** A page traded the code of this link. */
  onDidUseLink(listener: (link: string) => void): () => void;
  /**
   * A code was refused: already used, expired, or never issued. `expired` names the link when the code was
   * one of ours that ran out of time (the person opened it late); a used or unknown code names none.
   */
  onDidRefuseLink(listener: (refusal: { readonly expired: string | null }) => void): () => void;
  close(): Promise<void>;
}

/** A fresh secret per launch (and a fresh one-time code per link): 256 random bits, URL-safe. */
export const createLaunchSecret = (): string => randomBytes(32).toString('base64url');

/** A code is a few dozen bytes of JSON; anything longer is not a code. */
const MAX_SESSION_REQUEST_BYTES = 1024;

/** The preview address of a registered file in this host. */
export const webPreviewUrl = (secret: string) => (id: string) =>
  `${MEDIA_PATH}${encodeURIComponent(id)}?token=${encodeURIComponent(secret)}`;

/** Only loopback: the bridge can post as the user, so it must never listen on another interface. */
export const WEB_HOST_ADDRESS = '127.0.0.1';

const MAX_MESSAGE_BYTES = 12 * 1024 * 1024;

// eslint-disable-next-line max-lines-per-function -- the Fastify server's routes and its one guard hook, registered in order; each route is its own module
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const maxFileBytes = opts.maxFileBytes ?? LIMITS.mp4UploadBytes + 1024 * 1024;
  let port = 0;
  const app = Fastify({ logger: false, forceCloseConnections: true });

  // Registered first, so the guard below knows an upgrade (`req.ws`) when it runs.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // Closing the host ends every page's socket at once, as a stopped process would.
    preClose(done) {
      for (const c of this.websocketServer.clients) c.terminate();
      this.websocketServer.close(() => done());
    },
  });
  guardRequests(app, { port: () => port, secret: opts.secret });

  // Every answer, a refusal too, carries the same security headers.
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers({
      'content-security-policy': contentSecurityPolicy({
        connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`],
      }),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    if (reply.getHeader('content-type')?.toString().startsWith('application/json')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError & { headers?: Record<string, string> }, req, reply) => {
    const status = error.statusCode ?? 500;
    // An unsatisfiable Range says the file's size (`content-range: bytes */SIZE`).
    if (status < 500 && error.headers) reply.headers(error.headers);
    if (status >= 500) {
      opts.log?.error('the web host failed to answer a request', {
        method: req.method,
        error: errorText(error),
      });
    }
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(status >= 500 ? 'internal error' : error.message);
  });

  const codes = new Map<string, { readonly link: string; readonly expiresAt: number | null }>();
  const used = new Set<(link: string) => void>();
  const refused = new Set<(refusal: { readonly expired: string | null }) => void>();

  // The one place the session secret leaves the host: once per issued code, to a page of this origin.
  await app.register(async (session) => {
    session.removeAllContentTypeParsers();
    session.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: MAX_SESSION_REQUEST_BYTES },
      (_req, text, done) => done(null, text),
    );
    session.post(SESSION_PATH, { config: { guard: { origin: true } } }, async (req, reply) => {
      let code: string | null = null;
      try {
        const parsed = SessionRequest.safeParse(JSON.parse(String(req.body)));
        code = parsed.success ? parsed.data.code : null;
      } catch {
        // not JSON: no code
      }
      const entry = code === null ? undefined : codes.get(code);
      if (code !== null) codes.delete(code);
      const expired = entry !== undefined && entry.expiresAt !== null && Date.now() > entry.expiresAt;
      if (!entry || expired) {
        for (const l of [...refused]) l({ expired: expired ? entry.link : null });
        return reply
          .code(403)
          .send(fail({ kind: 'forbidden', message: 'This link was already used or has expired.' }));
      }
      for (const l of [...used]) l(entry.link);
      return reply.send(ok<SessionGrant>({ token: opts.secret }));
    });
  });

  await registerUploadRoute(app, { stagingDir: opts.stagingDir, grants: opts.grants, maxFileBytes });
  registerMediaPreviews(app, opts.media);
  if (opts.downloads) registerDownloadRoute(app, opts.downloads);

  app.get(
    WS_PATH,
    {
      websocket: true,
      config: { guard: { origin: true, secret: { in: 'query', refusal: 401 }, websocket: true } },
    },
    (ws) => {
      const send = (m: ServerMessage): boolean => {
        if (ws.readyState !== ws.OPEN) return false;
        ws.send(JSON.stringify(m));
        return true;
      };
      const sub = opts.dispatcher.subscribe((channel, payload) => send({ t: 'event', channel, payload }));
      ws.on('close', () => sub.dispose());
      ws.on('error', () => ws.terminate());
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        let msg: ClientMessage;
        try {
          const parsed = ClientMessage.safeParse(JSON.parse(String(data)));
          if (!parsed.success) return;
          msg = parsed.data;
        } catch {
          return;
        }
        void opts.dispatcher
          .invoke(msg.channel, msg.input)
          .then((result) => send({ t: 'result', id: msg.id, result }));
      });
    },
  );

  await registerRenderer(app, opts.staticDir);

  await ensurePrivateDir(opts.stagingDir);
  await app.listen({ port: opts.port ?? 0, host: WEB_HOST_ADDRESS });
  port = (app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    newLink(o) {
      const code = createLaunchSecret();
      const link = `${origin}/#code=${code}`;
      codes.set(code, { link, expiresAt: o?.ttlMs === undefined ? null : Date.now() + o.ttlMs });
      return link;
    },
    onDidUseLink(listener) {
      used.add(listener);
      return () => void used.delete(listener);
    },
    onDidRefuseLink(listener) {
      refused.add(listener);
      return () => void refused.delete(listener);
    },
    async close() {
      codes.clear();
      await app.close();
    },
  };
}
