import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { serve } from '../operation-route';
import { analytics } from './service';

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'analytics', (req, { ownerId }) => analytics(ctx, ownerId, req.query));
}
