import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';
import { fail, ok } from '../../../src-shared/ipc/bridge-error';
import {
  ClientMessage,
  FILES_PATH,
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
import { createUploadRoute } from './upload-route';
import { contentSecurityPolicy } from '../../core/bridge/csp';
import { hostAllowed, originAllowed, secretMatches } from './http-guard';
import { contentTypeOf, resolveStatic, sendFile } from './static-files';

export interface WebHostOptions {
  readonly dispatcher: BridgeDispatcher;
  readonly media: MediaRegistry;
  /** Where uploads are granted (`upload-route.ts`). */
  readonly grants: GrantRegistry;
  /** The built renderer (`vite build --config vite.web.config.ts` → out/web). */
  readonly staticDir: string;
  /** Where uploaded files' bytes are kept (private, 0700) while the host runs. */
  readonly stagingDir: string;
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
  /** A code was refused: already used, expired, or never issued. */
  onDidRefuseLink(listener: () => void): () => void;
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

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const maxFileBytes = opts.maxFileBytes ?? LIMITS.mp4UploadBytes + 1024 * 1024;
  let port = 0;
  const securityHeaders = (): Record<string, string> => ({
    'content-security-policy': contentSecurityPolicy({
      connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`],
    }),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      ...securityHeaders(),
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify(body));
  };
  const receiveFile = createUploadRoute({
    stagingDir: opts.stagingDir,
    grants: opts.grants,
    secret: opts.secret,
    maxFileBytes,
    reply: json,
  });
  const plain = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { ...securityHeaders(), 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  };

  const codes = new Map<string, { readonly link: string; readonly expiresAt: number | null }>();
  const used = new Set<(link: string) => void>();
  const refused = new Set<() => void>();

  async function readSmallBody(req: IncomingMessage): Promise<string | null> {
    let text = '';
    for await (const chunk of req) {
      text += String(chunk);
      if (text.length > MAX_SESSION_REQUEST_BYTES) return null;
    }
    return text;
  }

  /** The one place the session secret leaves the host: once per issued code, to a page of this origin. */
  async function tradeCode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!originAllowed(req, port)) return plain(res, 403, 'forbidden');
    const body = await readSmallBody(req);
    let code: string | null = null;
    try {
      const parsed = SessionRequest.safeParse(body === null ? null : JSON.parse(body));
      code = parsed.success ? parsed.data.code : null;
    } catch {
      // not JSON: no code
    }
    const entry = code === null ? undefined : codes.get(code);
    if (code !== null) codes.delete(code);
    if (!entry || (entry.expiresAt !== null && Date.now() > entry.expiresAt)) {
      for (const l of [...refused]) l();
      json(res, 403, fail({ kind: 'forbidden', message: 'This link was already used or has expired.' }));
      return;
    }
    for (const l of [...used]) l(entry.link);
    json(res, 200, ok<SessionGrant>({ token: opts.secret }));
  }

  async function serveMedia(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!secretMatches(url.searchParams.get('token'), opts.secret)) {
      plain(res, 403, 'forbidden');
      return;
    }
    let id = '';
    try {
      id = decodeURIComponent(url.pathname.slice(MEDIA_PATH.length));
    } catch {
      // an undecodable id is simply unknown
    }
    const file = await opts.media.resolveForServing(id);
    if (!file) {
      plain(res, 404, 'not found');
      return;
    }
    await sendFile(res, file.path, file.mime, req.headers.range, {
      ...securityHeaders(),
      'cache-control': 'no-store',
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, port)) {
      plain(res, 421, 'wrong host');
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === SESSION_PATH) {
      if (req.method !== 'POST') return plain(res, 405, 'method not allowed');
      return tradeCode(req, res);
    }
    if (url.pathname === FILES_PATH) {
      if (req.method !== 'POST') return plain(res, 405, 'method not allowed');
      if (!originAllowed(req, port)) return plain(res, 403, 'forbidden');
      return receiveFile(req, res);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
    if (url.pathname.startsWith(MEDIA_PATH)) return serveMedia(url, req, res);
    const file = await resolveStatic(opts.staticDir, url.pathname);
    if (!file && url.pathname === '/favicon.ico') {
      res.writeHead(204, securityHeaders()).end(); // browsers ask for it unprompted; the build may have none
      return;
    }
    if (!file) {
      plain(res, 404, 'not found (is the renderer built? npm run build:web)');
      return;
    }
    const isHtml = file.endsWith('.html');
    await sendFile(res, file, contentTypeOf(file), undefined, {
      ...securityHeaders(),
      'cache-control': isHtml ? 'no-store' : 'no-cache',
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      opts.log?.error('the web host failed to answer a request', {
        method: req.method,
        error: errorText(error),
      });
      if (!res.headersSent) plain(res, 500, 'internal error');
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  const refuse = (socket: Duplex, status: string) => {
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== WS_PATH) return refuse(socket, '404 Not Found');
    if (!hostAllowed(req, port)) return refuse(socket, '421 Misdirected Request');
    if (!originAllowed(req, port)) return refuse(socket, '403 Forbidden');
    if (!secretMatches(url.searchParams.get('token'), opts.secret)) return refuse(socket, '401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const send = (m: ServerMessage): boolean => {
      if (ws.readyState !== WebSocket.OPEN) return false;
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
  });

  await mkdir(opts.stagingDir, { recursive: true, mode: 0o700 });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, WEB_HOST_ADDRESS, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;
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
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
