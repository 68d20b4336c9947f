import { basename, dirname, extname } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MEDIA_PATH } from '../../../src-shared/ipc/ws-protocol';
import type { MediaRegistry } from '../../core/bridge/media-registry';
import { isWithin, realPath } from '../../core/files';

/** A file the build folder holds only through a symlink out of it: answered as missing. */
class NotServed extends Error {
  readonly statusCode = 404;
}

/**
 * The built renderer (out/web) with @fastify/static: content types, `Range` and conditional requests
 * are its. A path without an extension is a client-side route and gets the app's index.html; the page
 * itself is never cached, the rest is revalidated. Nothing is served from outside the folder, even
 * through a symlink in it.
 */
export async function registerRenderer(app: FastifyInstance, root: string): Promise<void> {
  const realRoot = await realPath(root).catch(() => root);
  await app.register(fastifyStatic, {
    root: realRoot,
    dotfiles: 'ignore',
    cacheControl: false,
    onFile: async (file) => {
      if (!isWithin(realRoot, await realPath(file))) throw new NotServed('not found');
    },
    // Also called for the media previews' sendFile, which set their own.
    setHeaders: (reply, file) => {
      if (isWithin(realRoot, file))
        reply.header('cache-control', file.endsWith('.html') ? 'no-store' : 'no-cache');
    },
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    if ((req.method === 'GET' || req.method === 'HEAD') && !extname(path)) {
      return reply.header('cache-control', 'no-store').sendFile('index.html');
    }
    // Browsers ask for it unprompted; the build may have none.
    if (path === '/favicon.ico') return reply.code(204).send();
    return reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .send('not found (is the renderer built? npm run build:web)');
  });
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
