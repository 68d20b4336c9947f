import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { serve } from '../operation-route';
import { bulkCreate, bulkInspect, bulkUpdate } from './bulk';

export function registerBulkRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'bulkCreate', (req, { ownerId }) => bulkCreate(ctx, ownerId, req.body));
  serve(app, ctx, 'bulkInspect', (req, { ownerId }) => bulkInspect(ctx, ownerId, req.query));
  serve(app, ctx, 'bulkUpdate', (req, { ownerId }) => bulkUpdate(ctx, ownerId, req.body));
}
