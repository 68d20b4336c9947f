import type { FastifyInstance } from 'fastify';
import { DeletePostRequest } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { serve } from '../operation-route';
import { parse } from '../validate';
import { listPostsText } from './delivery-page';
import { listAccounts } from './accounts';
import { createPost } from './create';
import { deletePost } from './delete';
import { updatePost } from './update';

export function registerPostRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'listAccounts', (_req, { ownerId }) => ({ accounts: listAccounts(ctx, ownerId) }));
  serve(app, ctx, 'listPosts', (req, { ownerId }) => listPostsText(ctx, ownerId, req.query));
  serve(app, ctx, 'createPost', (req, { ownerId }) => createPost(ctx, ownerId, req.body));
  serve(app, ctx, 'updatePost', (req, { ownerId }) => updatePost(ctx, ownerId, req.body));
  serve(app, ctx, 'deletePost', (req, { ownerId }) => {
    deletePost(ctx, ownerId, parse(DeletePostRequest, req.body).id);
    return { success: true };
  });
}
