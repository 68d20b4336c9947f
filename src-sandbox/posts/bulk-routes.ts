import type { FastifyInstance } from 'fastify';
import { requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { bulkCreate, bulkInspect, bulkUpdate } from './bulk';

export function registerBulkRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/api/cli/posts/bulk', async (req, reply) => {
    const { ownerId } = requireApiKey(req, ctx);
    return reply.code(201).send(bulkCreate(ctx, ownerId, req.body));
  });
  app.get('/api/cli/posts/bulk', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return bulkInspect(ctx, ownerId, req.query);
  });
  app.patch('/api/cli/posts/bulk', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return bulkUpdate(ctx, ownerId, req.body);
  });
}
