import type { FastifyInstance } from 'fastify';
import { DeleteArticleRequest } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { serve } from '../operation-route';
import { parse } from '../validate';
import { createArticle, deleteArticle, listArticles } from './service';

export function registerArticleRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'listArticles', (req, { ownerId }) => ({
    articles: listArticles(ctx, ownerId, req.query),
  }));
  serve(app, ctx, 'createArticle', (req, { ownerId }) => createArticle(ctx, ownerId, req.body));
  serve(app, ctx, 'deleteArticle', (req, { ownerId }) => {
    deleteArticle(ctx, ownerId, parse(DeleteArticleRequest, req.body).id);
    return { success: true };
  });
}
