import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DOWNLOADS_PATH } from '../../../src-shared/ipc/ws-protocol';
import type { DownloadShelf } from '../../core/bridge/host-ports';
import { isDownloadId } from '../../host/downloads';
import { createFileReadStream, removePath, statPath } from '../../core/files';

/** `filename*` per RFC 6266/5987, with a plain ASCII fallback: the name is the host's own, never a page's. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\w.\- ]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * `GET /bridge/downloads/<id>?token=`: an export, once, as an attachment; the private copy is removed when it
 * has been sent (or on the host's exit). The guard checks the launch secret, as for media previews.
 */
export function registerDownloadRoute(app: FastifyInstance, shelf: DownloadShelf): void {
  app.get<{ Params: { id: string } }>(
    `${DOWNLOADS_PATH}:id`,
    { config: { guard: { secret: { in: 'query', refusal: 403 } } } },
    async (req, reply) => {
      const id = req.params.id;
      const d = isDownloadId(id) ? shelf.take(id) : undefined;
      const size = d
        ? await statPath(d.file).then(
            (s) => (s.isFile() ? s.size : null),
            () => null,
          )
        : null;
      if (!d || size === null) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
      const body = createFileReadStream(d.file);
      body.on('close', () => void removePath(dirname(d.file), { recursive: true }));
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', disposition(d.name))
        .header('content-length', size)
        .type(d.name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
        .send(body);
    },
  );
}
