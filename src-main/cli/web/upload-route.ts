import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../../../src-shared/ipc/bridge-error';
import { FILES_PATH, FILE_NAME_HEADER } from '../../../src-shared/ipc/ws-protocol';
import type { GrantRegistry } from '../../core/bridge/grants';
import { safeLine } from '../../../src-shared/safe-text';
import { formatBytes } from '../../../src-shared/format-bytes';
import { createPrivateWriteStream, ensurePrivateDir, removePath } from '../../core/files';

/**
 * `POST /bridge/files`: how a browser gives `postdesk web` a file. A page cannot name a file on this
 * computer, so it sends the bytes (with the launch secret, which the host's guard checks); the host keeps
 * them privately (a 0600 file in its own 0700 folder under the staging folder) and answers a grant, which
 * the page passes to the channels. What it keeps is bounded (files and bytes), and a file is deleted when its
 * grant goes.
 */
export interface UploadRouteOptions {
  /** The host's private staging folder (0700), removed when the host stops. */
  readonly stagingDir: string;
  readonly grants: GrantRegistry;
  readonly maxFileBytes: number;
  /** How many uploaded files the host keeps at once (this launch's page sessions together). */
  readonly maxFiles?: number;
  /** How many bytes of uploads the host keeps at once; default: 4 of the largest file. */
  readonly maxTotalBytes?: number;
}

/** Uploads kept at once by default: a page cannot fill the disk with one file after another. */
export const MAX_STAGED_FILES = 200;

/**
 * The name the user saw, as safe text (src-shared/safe-text.ts): control and bidi characters shown escaped,
 * at most 300 characters cut between graphemes. The stored file gets a safe name of its own.
 */
export function uploadName(raw: string | undefined): string {
  let name = '';
  try {
    name = decodeURIComponent(raw ?? '');
  } catch {
    // keep it empty: the fallback below
  }
  return safeLine(name.trim(), { max: 300 }) || 'file';
}

/** A file name that stays inside its folder: no separators, no leading dot, only plain characters. */
export function safeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ()]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 200);
  return base || 'file';
}

/** Writes the body to `file`, never past `max` bytes: its size when it all arrived and fits, else null. */
function receive(body: Readable, file: string, max: number): Promise<number | null> {
  return new Promise<number | null>((resolveWrite) => {
    let bytes = 0;
    let out: Writable;
    try {
      out = createPrivateWriteStream(file, { exclusive: true });
    } catch {
      body.resume();
      return resolveWrite(null);
    }
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > max) {
        body.unpipe(out);
        out.destroy();
        body.resume();
        resolveWrite(null);
      }
    });
    body.pipe(out);
    out.on('finish', () => resolveWrite(bytes <= max ? bytes : null));
    out.on('error', () => resolveWrite(null));
    body.on('error', () => resolveWrite(null));
  });
}

export async function registerUploadRoute(app: FastifyInstance, o: UploadRouteOptions): Promise<void> {
  const maxFiles = o.maxFiles ?? MAX_STAGED_FILES;
  const maxTotalBytes = o.maxTotalBytes ?? 4 * o.maxFileBytes;
  /** What is staged, by grant: its private folder and its size. */
  const staged = new Map<string, { readonly dir: string; readonly bytes: number }>();
  let stagedBytes = 0;
  let receiving = 0; // bytes promised to uploads still arriving
  const removing = new Set<Promise<void>>();
  // When a grant goes (the registry's oldest past its limit, or its file gone), its bytes go with it.
  const unsubscribe = o.grants.onDidForget((g) => {
    const kept = staged.get(g.id);
    if (!kept) return;
    staged.delete(g.id);
    stagedBytes -= kept.bytes;
    const removed: Promise<void> = removePath(kept.dir, { recursive: true })
      .catch(() => undefined)
      .finally(() => removing.delete(removed));
    removing.add(removed);
  });
  app.addHook('onClose', async () => unsubscribe());
  const refuse = (message: string) => fail({ kind: 'invalid_input', message });

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
          return reply.code(413).send(refuse('the file is larger than any upload may be'));
        }
        if (staged.size >= maxFiles) {
          body.resume();
          return reply
            .code(413)
            .send(
              refuse(
                `postdesk web keeps at most ${maxFiles} files sent from the page; restart it to send more`,
              ),
            );
        }
        const room = maxTotalBytes - stagedBytes - receiving;
        if (room <= 0 || (Number.isFinite(declared) && declared > room)) {
          body.resume();
          return reply
            .code(413)
            .send(
              refuse(
                `postdesk web keeps at most ${formatBytes(maxTotalBytes)} of files sent from the page; restart it to send more`,
              ),
            );
        }
        const limit = Math.min(o.maxFileBytes, room);
        const nameHeader = req.headers[FILE_NAME_HEADER];
        const name = uploadName(Array.isArray(nameHeader) ? nameHeader[0] : nameHeader);
        const dir = join(o.stagingDir, randomUUID());
        await ensurePrivateDir(dir);
        const file = join(dir, safeFileName(name));
        receiving += limit;
        let received: number | null;
        try {
          received = await receive(body, file, limit);
        } finally {
          receiving -= limit;
        }
        if (received === null) {
          await removePath(dir, { recursive: true });
          return reply.code(413).send(refuse('the file could not be received'));
        }
        const granted = await o.grants.mint([{ path: file, name }], 'upload');
        await Promise.all(removing); // a grant this one pushed out is deleted before the answer
        const grant = granted.files[0]?.grant;
        if (grant) {
          staged.set(grant, { dir, bytes: received });
          stagedBytes += received;
        } else {
          await removePath(dir, { recursive: true });
        }
        return reply.send(ok(granted));
      },
    );
  });
}
