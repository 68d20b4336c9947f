import type { FastifyInstance } from 'fastify';
import { requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { analytics } from './service';

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/api/cli/analytics', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return analytics(ctx, ownerId, req.query);
  });
}
