import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rm, mkdir } from 'node:fs/promises';
import { z } from 'zod';
import { DateTime } from '../../src-shared/api';
import { agentStateCounts } from '../agent/state';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError } from '../errors';
import { FaultSettings, type Faults } from '../faults';
import { loadFixture } from '../fixture';
import { parse } from '../validate';

const ClockMove = z.union([
  z.object({ advance_ms: z.number().int().min(0) }).strict(),
  z.object({ now: DateTime }).strict(),
]);

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** True when the request came over loopback (the control API answers nowhere else). */
export function isLoopback(req: FastifyRequest): boolean {
  return LOOPBACK.test(req.socket.remoteAddress ?? '');
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

export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext, deps: ControlDeps): void {
  const clockBody = (reply: FastifyReply) =>
    reply.send({ now: ctx.clock.now().toISOString(), virtual: ctx.clock.isVirtual });

  app.post('/_sandbox/reset', async (req) => {
    loadFixture(ctx, req.body ?? {});
    deps.faults.set({});
    // Objects belong to the wiped rows; the directory is recreated empty.
    await rm(ctx.objectsDir, { recursive: true, force: true });
    await mkdir(ctx.objectsDir, { recursive: true });
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
}
