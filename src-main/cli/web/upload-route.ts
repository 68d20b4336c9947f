import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../../../src-shared/ipc/bridge-error';
import { FILES_PATH, FILE_NAME_HEADER } from '../../../src-shared/ipc/ws-protocol';
import type { GrantRegistry } from '../../core/bridge/grants';
import { createPrivateWriteStream, ensurePrivateDir, removePath } from '../../core/files';

/**
 * `POST /bridge/files`: how a browser gives `postdesk web` a file. A page cannot name a file on this
 * computer, so it sends the bytes (with the launch secret, which the host's guard checks); the host keeps
 * them privately (a 0600 file in its own 0700 folder under the staging folder) and answers a grant, which
 * the page passes to the channels.
 */
export interface UploadRouteOptions {
  /** The host's private staging folder (0700), removed when the host stops. */
  readonly stagingDir: string;
  readonly grants: GrantRegistry;
  readonly maxFileBytes: number;
}

/** The name the user saw, without control characters; the stored file gets a safe name of its own. */
export function uploadName(raw: string | undefined): string {
  let name = '';
  try {
    name = decodeURIComponent(raw ?? '');
  } catch {
    // keep it empty: the fallback below
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const CONTROL = /[\u0000-\u001f\u007f]/g;
  return name.replace(CONTROL, '').trim().slice(0, 300) || 'file';
}

/** A file name that stays inside its folder: no separators, no leading dot, only plain characters. */
export function safeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ()]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 200);
  return base || 'file';
}

/** Writes the body to `file`, never past `max` bytes: true when it all arrived and fits. */
function receive(body: Readable, file: string, max: number): Promise<boolean> {
  return new Promise<boolean>((resolveWrite) => {
    let bytes = 0;
    let out: Writable;
    try {
      out = createPrivateWriteStream(file, { exclusive: true });
    } catch {
      body.resume();
      return resolveWrite(false);
    }
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > max) {
        body.unpipe(out);
        out.destroy();
        body.resume();
        resolveWrite(false);
      }
    });
    body.pipe(out);
    out.on('finish', () => resolveWrite(bytes <= max));
    out.on('error', () => resolveWrite(false));
    body.on('error', () => resolveWrite(false));
  });
}

export async function registerUploadRoute(app: FastifyInstance, o: UploadRouteOptions): Promise<void> {
  await app.register(async (uploads) => {
    // The bytes stream to the private file as they arrive, whatever type the browser gave them.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    uploads.post(
      FILES_PATH,
      { config: { guard: { origin: true, secret: { in: 'header', refusal: 403 } } } },
      async (req, reply) => {
        // Without a body (nor a content type) no parser ran: the request itself is the (empty) stream.
        const body = (req.body as Readable | undefined) ?? req.raw;
        const declared = Number(req.headers['content-length'] ?? NaN);
        if (Number.isFinite(declared) && declared > o.maxFileBytes) {
          body.resume(); // read to the end, so the browser hears the refusal rather than a reset
          return reply
            .code(413)
            .send(fail({ kind: 'invalid_input', message: 'the file is larger than any upload may be' }));
        }
        const nameHeader = req.headers[FILE_NAME_HEADER];
        const name = uploadName(Array.isArray(nameHeader) ? nameHeader[0] : nameHeader);
        const dir = join(o.stagingDir, randomUUID());
        await ensurePrivateDir(dir);
        const file = join(dir, safeFileName(name));
        if (!(await receive(body, file, o.maxFileBytes))) {
          await removePath(dir, { recursive: true });
          return reply
            .code(413)
            .send(fail({ kind: 'invalid_input', message: 'the file could not be received' }));
        }
        return reply.send(ok(await o.grants.mint([{ path: file, name }], 'upload')));
      },
    );
  });
}
