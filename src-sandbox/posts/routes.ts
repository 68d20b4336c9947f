import type { FastifyInstance } from 'fastify';
import { DeletePostRequest } from '../../src-shared/api';
import { requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { parse } from '../validate';
import { createPost, deletePost, listAccounts, listPosts, updatePost } from './service';

export function registerPostRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/api/cli/accounts', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return { accounts: listAccounts(ctx, ownerId) };
  });

  app.get('/api/cli/posts', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return { posts: listPosts(ctx, ownerId, req.query) };
  });

  app.post('/api/cli/posts', async (req, reply) => {
    const { ownerId } = requireApiKey(req, ctx);
    return reply.code(201).send(createPost(ctx, ownerId, req.body));
  });

  app.patch('/api/cli/posts', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    return updatePost(ctx, ownerId, req.body);
  });

  app.delete('/api/cli/posts', async (req) => {
    const { ownerId } = requireApiKey(req, ctx);
    const { id } = parse(DeletePostRequest, req.body);
    deletePost(ctx, ownerId, id);
    return { success: true };
  });
}
