import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { CompleteUploadRequest } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { notFound } from '../errors';
import { serve } from '../operation-route';
import { parse } from '../validate';
import { completeMedia, receiveUpload, reserveMedia, storedObject } from './service';

const RANGE = /^bytes=(\d*)-(\d*)$/;

export function registerMediaRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'reserveMedia', (req, { ownerId }) => reserveMedia(ctx, ownerId, req.body));
  serve(app, ctx, 'completeMedia', (req, { ownerId }) =>
    completeMedia(ctx, ownerId, parse(CompleteUploadRequest, req.body).asset_id),
  );

  // The presigned address; app.ts passes request bodies of non-JSON types through as raw streams.
  app.put<{ Params: { id: string }; Querystring: Record<string, string> }>(
    '/uploads/media/:id',
    async (req) => {
      const body = req.body instanceof Readable ? req.body : req.raw;
      return {
        ok: true,
        ...(await receiveUpload(ctx, {
          objectKey: req.params.id,
          query: req.query,
          headers: req.headers,
          body,
        })),
      };
    },
  );

  // Public URLs of completed assets, with single-range support for video players.
  app.get<{ Params: { file: string } }>('/media/:file', async (req, reply) => {
    const objectKey = req.params.file.replace(/\.[a-z0-9]+$/, '');
    const object = await storedObject(ctx, objectKey);
    if (!object) throw notFound('media object');
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', object.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable');
    const range = typeof req.headers.range === 'string' ? RANGE.exec(req.headers.range) : null;
    if (range && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : object.size - Number(range[2]);
      let end = range[1] && range[2] ? Number(range[2]) : object.size - 1;
      start = Math.max(0, start);
      end = Math.min(end, object.size - 1);
      if (start > end || start >= object.size) {
        return reply
          .code(416)
          .header('content-range', `bytes */${object.size}`)
          .send({ error: 'range not satisfiable', code: 'RANGE_NOT_SATISFIABLE' });
      }
      reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${object.size}`)
        .header('content-length', end - start + 1);
      return reply.send(object.open(start, end));
    }
    reply.header('content-length', object.size);
    return reply.send(object.open());
  });
}
