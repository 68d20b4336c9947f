import { basename, dirname, relative } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MEDIA_PATH } from '../../../src-shared/ipc/ws-protocol';
import type { MediaRegistry } from '../../core/bridge/media-registry';
import { contentTypeOf, resolveStatic } from '../../host/static-files';
import { isWithin, realPath } from '../../core/files';

/** A file opened other than the one resolved (a symlink swapped in): answered as missing. */
class NotServed extends Error {
  readonly statusCode = 404;
}

/**
 * The built renderer (out/web): which file a path names is src-main/host/static-files.ts's rule, the one the
 * Electron app scheme follows too; @fastify/static's sendFile answers `Range` and conditional requests. The
 * page itself is never cached, the rest is revalidated.
 */
export async function registerRenderer(app: FastifyInstance, root: string): Promise<void> {
  const realRoot = await realPath(root).catch(() => root);
  // `serve: false`: only the sendFile decorator, for this route and the media previews.
  await app.register(fastifyStatic, { root: realRoot, serve: false, cacheControl: false });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (req, reply) => {
      const path = req.url.split('?')[0] ?? '/';
      const file = await resolveStatic(realRoot, path);
      if (!file) return notFound(path, reply);
      return reply
        .header('cache-control', file.endsWith('.html') ? 'no-store' : 'no-cache')
        .type(contentTypeOf(file))
        .sendFile(relative(realRoot, file), realRoot, {
          contentType: false,
          // The file opened is still inside the build, not a symlink out of it swapped in since.
          onFile: async (opened) => {
            if (!isWithin(realRoot, await realPath(opened))) throw new NotServed('not found');
          },
        });
    },
  });
  app.setNotFoundHandler((req, reply) => notFound(req.url.split('?')[0] ?? '/', reply));
}

function notFound(path: string, reply: FastifyReply): FastifyReply {
  // Browsers ask for it unprompted; the build may have none.
  if (path === '/favicon.ico') return reply.code(204).send();
  return reply
    .code(404)
    .type('text/plain; charset=utf-8')
    .send('not found (is the renderer built? npm run build:web)');
}

/**
 * `/media/<id>?token=`: the files the page added, by their registered id only (the guard checks the
 * token). `Range` is honoured, so a video preview seeks.
 */
export function registerMediaPreviews(app: FastifyInstance, media: MediaRegistry): void {
  app.get<{ Params: { id: string } }>(
    `${MEDIA_PATH}:id`,
    { config: { guard: { secret: { in: 'query', refusal: 403 } } } },
    async (req, reply) => {
      const file = await media.resolveForServing(req.params.id);
      if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
      return reply
        .header('cache-control', 'no-store')
        .type(file.mime)
        .sendFile(basename(file.path), dirname(file.path), {
          contentType: false,
          dotfiles: 'allow',
          etag: false,
          lastModified: false,
          // The file opened is the one registered, not a symlink swapped in since it was resolved.
          onFile: async (opened) => {
            if ((await realPath(opened)) !== file.path) throw new NotServed('not found');
          },
        });
    },
  );
}
