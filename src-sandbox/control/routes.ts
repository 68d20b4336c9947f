import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DateTime } from '../../src-shared/api';
import { agentStateCounts } from '../agent/state';
import { hashApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import { FaultSettings, type Faults } from '../faults';
import { loadFixture } from '../fixture';
import { parse } from '../validate';
import { ensurePrivateDir, removePath } from '../../src-main/core/files';

const ClockMove = z.union([
  z.object({ advance_ms: z.number().int().min(0) }).strict(),
  z.object({ now: DateTime }).strict(),
]);

const KeyRevocation = z.object({ key: z.string().min(1).max(500) }).strict();

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** True when the request came over loopback (the control API answers nowhere else). */
export function isLoopback(req: FastifyRequest): boolean {
  return LOOPBACK.test(req.socket.remoteAddress ?? '');
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * True when `origin` is a page the sandbox itself serves: its own scheme and port (main or alias),
 * under its host name or a loopback name. `null` and every other site are foreign.
 */
function isOwnOrigin(origin: string, ownBaseUrls: readonly string[]): boolean {
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false;
  }
  return ownBaseUrls.some((base) => {
    const own = new URL(base);
    return (
      from.protocol === own.protocol &&
      from.port === own.port &&
      (from.hostname === own.hostname || LOOPBACK_NAMES.has(from.hostname))
    );
  });
}

/** True when the `Host` header names the sandbox: its own host name or a loopback name. */
function isOwnHost(host: string | undefined, ownBaseUrls: readonly string[]): boolean {
  if (!host) return false;
  let to: URL;
  try {
    to = new URL(`http://${host}`);
  } catch {
    return false;
  }
  return (
    LOOPBACK_NAMES.has(to.hostname) || ownBaseUrls.some((base) => new URL(base).hostname === to.hostname)
  );
}

const contentTypeOf = (req: FastifyRequest): string =>
  String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/**
 * Any web page can make the browser send a "simple" request to loopback: a form post or a no-cors
 * fetch, with a text/plain, urlencoded or multipart body or none, and an Origin naming that page.
 * Control routes refuse every foreign Origin (403) and every body that is not JSON (415), which a
 * page cannot send cross-site without a CORS preflight the sandbox never grants. Runs in onRequest,
 * before the body is read.
 */
export function guardControlRequest(req: FastifyRequest, ownBaseUrls: readonly string[]): void {
  // A page that rebinds its own name to 127.0.0.1 reads same-origin GETs, which carry no Origin; its Host still
  // names the page's site.
  if (!isOwnHost(req.headers.host, ownBaseUrls)) {
    throw new SandboxError(
      403,
      'FORBIDDEN',
      'the control API answers only requests addressed to the sandbox itself',
    );
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, ownBaseUrls)) {
    throw new SandboxError(
      403,
      'FORBIDDEN',
      'the control API refuses requests from web pages of other origins',
    );
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && contentTypeOf(req) !== 'application/json') {
    throw new SandboxError(
      415,
      'VALIDATION_FAILED',
      'unsupported content-type: control requests must be sent as application/json',
    );
  }
}

export interface ControlDeps {
  faults: Faults;
  /** Runs due work (scheduled deliveries, expiries, leases) at the clock's current time. */
  runTick(): void;
}

const countBy = (rows: { k: string; n: number }[]): Record<string, number> =>
  Object.fromEntries(rows.map((r) => [r.k, r.n]));

export function sandboxState(ctx: SandboxContext): Record<string, unknown> {
  const db = ctx.db;
  const one = (sql: string) => (stmt(db, sql).get() as { n: number }).n;
  const media = countBy(
    stmt(db, 'SELECT status AS k, COUNT(*) AS n FROM media_assets GROUP BY status').all() as never,
  );
  const agent = agentStateCounts(ctx);
  return {
    posts: one('SELECT COUNT(*) AS n FROM posts'),
    deliveries: countBy(
      stmt(db, 'SELECT status AS k, COUNT(*) AS n FROM deliveries GROUP BY status').all() as never,
    ),
    batches: one('SELECT COUNT(*) AS n FROM bulk_batches'),
    bulk_items: one('SELECT COUNT(*) AS n FROM bulk_items'),
    media: { pending: media.pending ?? 0, uploaded: media.uploaded ?? 0 },
    articles: countBy(
      stmt(db, 'SELECT status AS k, COUNT(*) AS n FROM articles GROUP BY status').all() as never,
    ),
    executors: agent.executors,
    runs: agent.runs,
  };
}

/** What a test may change of an account after the fixture loaded (how its publishes go from now on). */
const AccountPatch = z
  .object({
    publish_failures: z.number().int().min(0).max(100).optional(),
    token_expired: z.boolean().optional(),
  })
  .strict();

export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext, deps: ControlDeps): void {
  const clockBody = (reply: FastifyReply) =>
    reply.send({ now: ctx.clock.now().toISOString(), virtual: ctx.clock.isVirtual });

  app.post('/_sandbox/reset', async (req) => {
    // A wipe must be asked for explicitly: an empty body is refused, `{}` loads an empty fixture.
    if (req.body === undefined) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        'body: is required: a fixture as JSON ({} for an empty one)',
      );
    }
    loadFixture(ctx, req.body);
    deps.faults.set({});
    // Objects belong to the wiped rows; the directory is recreated empty.
    await removePath(ctx.objectsDir, { recursive: true });
    await ensurePrivateDir(ctx.objectsDir);
    deps.runTick();
    return { ok: true };
  });

  app.get('/_sandbox/clock', async (_req, reply) => clockBody(reply));

  app.post('/_sandbox/clock', async (req, reply) => {
    const move = parse(ClockMove, req.body);
    try {
      if ('advance_ms' in move) ctx.clock.advance(move.advance_ms);
      else ctx.clock.set(new Date(move.now));
    } catch (err) {
      throw new SandboxError(400, 'VALIDATION_FAILED', err instanceof Error ? err.message : String(err));
    }
    deps.runTick();
    return clockBody(reply);
  });

  app.post('/_sandbox/faults', async (req) => {
    const settings = parse(FaultSettings, req.body);
    deps.faults.set(settings);
    return deps.faults.current();
  });

  app.get('/_sandbox/faults', async () => deps.faults.current());

  app.get('/_sandbox/state', async () => sandboxState(ctx));

  // Revokes one API key, as the owner would in the service's dashboard: what it signed in to (OAuth grants
  // of the MCP server) ends with it, which a test cannot show with a reset, since a reset wipes the grants too.
  app.post('/_sandbox/api-keys/revoke', async (req) => {
    const { key } = parse(KeyRevocation, req.body);
    const changed = stmt(ctx.db, 'UPDATE api_keys SET revoked = 1 WHERE key_hash = ?').run(hashApiKey(key));
    if (changed.changes === 0) throw new SandboxError(404, 'NOT_FOUND', 'key: no such API key');
    return { ok: true };
  });

  // A delivery made to fail, then its account mended: how a test shows that a retry publishes once.
  app.patch('/_sandbox/accounts/:id', async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const patch = parse(AccountPatch, req.body);
    const id = req.params.id;
    const found = stmt(ctx.db, 'SELECT id FROM accounts WHERE id = ?').get(id);
    if (!found) throw new SandboxError(404, 'NOT_FOUND', 'no account with that id');
    if (patch.publish_failures !== undefined)
      stmt(ctx.db, 'UPDATE accounts SET publish_failures = ? WHERE id = ?').run(patch.publish_failures, id);
    if (patch.token_expired !== undefined)
      stmt(ctx.db, 'UPDATE accounts SET token_expired = ? WHERE id = ?').run(patch.token_expired ? 1 : 0, id);
    return stmt(
      ctx.db,
      'SELECT id, platform, publish_failures, token_expired FROM accounts WHERE id = ?',
    ).get(id);
  });
}
