import type { FastifyInstance } from 'fastify';
import { DeleteArticleRequest } from '../../src-shared/api';
import { requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { parse } from '../validate';
import { createArticle, deleteArticle, listArticles } from './service';

export function registerArticleRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/api/cli/articles', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return { articles: listArticles(ctx, ownerId, req.query) };
  });
  app.post('/api/cli/articles', async (req, reply) => {
    const { ownerId } = requireApiKey(req, ctx);
    return reply.code(201).send(createArticle(ctx, ownerId, req.body));
  });
  app.delete('/api/cli/articles', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    const { id } = parse(DeleteArticleRequest, req.body);
    deleteArticle(ctx, ownerId, id);
    return { success: true };
  });
}
