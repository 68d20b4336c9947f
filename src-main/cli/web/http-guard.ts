import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
// Its type augmentation: `req.ws`, true for an upgrade request.
import type {} from '@fastify/websocket';
import { fail } from '../../../src-shared/ipc/bridge-error';
import { TOKEN_HEADER } from '../../../src-shared/ipc/ws-protocol';

/**
 * What a route asks of a request besides the right Host, declared on the route (`config.guard`) and
 * checked by the one hook below: the page's own Origin, the session secret (in `?token=` or the
 * `x-postdesk-token` header, refused with `refusal`), and whether it takes a WebSocket upgrade.
 */
export interface Guard {
  readonly origin?: true;
  readonly secret?: { readonly in: 'query' | 'header'; readonly refusal: 401 | 403 };
  readonly websocket?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard;
  }
}

/** The names this host answers to: a page reached by any other Host (DNS rebinding) is refused. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): ReadonlySet<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return allowedHosts(port).has((host ?? '').toLowerCase());
}

/** A browser always sends Origin on a WebSocket and a POST; a page of another site must not reach the bridge. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  return origin === undefined || allowedOrigins(port).has(origin.toLowerCase());
}

/** Constant-time comparison, so the secret cannot be guessed a character at a time. */
export function secretMatches(given: string | null | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function secretOf(req: FastifyRequest, where: 'query' | 'header'): string | undefined {
  if (where === 'header') {
    const h = req.headers[TOKEN_HEADER];
    return Array.isArray(h) ? h[0] : h;
  }
  const token = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

const refuse = (reply: FastifyReply, status: number, text: string): FastifyReply =>
  reply.code(status).type('text/plain; charset=utf-8').send(text);

/**
 * The host's one gate, run on every request (a WebSocket upgrade too) before it is routed to a handler:
 * Host, then what the route's guard asks for. `port` is read per request: it is known once listening.
 */
export function guardRequests(app: FastifyInstance, o: { port(): number; secret: string }): void {
  app.addHook('onRequest', async (req, reply) => {
    const port = o.port();
    if (!hostAllowed(req.headers.host, port)) return refuse(reply, 421, 'wrong host');
    const guard = req.routeOptions.config.guard ?? {};
    // Only the bridge's own path upgrades: any other path answers as if the upgrade were a plain GET.
    if (req.ws && !guard.websocket) return refuse(reply, 404, 'not found');
    if (guard.origin && !originAllowed(req.headers.origin, port)) return refuse(reply, 403, 'forbidden');
    if (guard.secret && !secretMatches(secretOf(req, guard.secret.in), o.secret)) {
      return reply
        .code(guard.secret.refusal)
        .send(fail({ kind: 'forbidden', message: 'not this launch of postdesk web' }));
    }
    return undefined;
  });
}
