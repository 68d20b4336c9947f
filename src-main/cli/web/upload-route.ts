import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { fail, ok, type BridgeResult } from '../../../src-shared/ipc/bridge-error';
import { FILE_NAME_HEADER, TOKEN_HEADER } from '../../../src-shared/ipc/ws-protocol';
import type { GrantRegistry } from '../../core/bridge/grants';
import { secretMatches } from './http-guard';

/**
 * `POST /bridge/files`: how a browser gives `postdesk web` a file. A page cannot name a file on this
 * computer, so it sends the bytes (with the launch secret); the host keeps them privately (a 0600 file in
 * its own 0700 folder under the staging folder) and answers a grant, which the page passes to the channels.
 */
export interface UploadRouteOptions {
  /** The host's private staging folder (0700), removed when the host stops. */
  readonly stagingDir: string;
  readonly grants: GrantRegistry;
  readonly secret: string;
  readonly maxFileBytes: number;
  /** Answers JSON with the host's security headers. */
  readonly reply: (res: ServerResponse, status: number, body: BridgeResult<unknown>) => void;
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

export function createUploadRoute(o: UploadRouteOptions) {
  return async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers[TOKEN_HEADER];
    if (!secretMatches(Array.isArray(header) ? header[0] : header, o.secret)) {
      o.reply(res, 403, fail({ kind: 'forbidden', message: 'not this launch of postdesk web' }));
      req.resume();
      return;
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > o.maxFileBytes) {
      o.reply(
        res,
        413,
        fail({ kind: 'invalid_input', message: 'the file is larger than any upload may be' }),
      );
      req.resume();
      return;
    }
    const nameHeader = req.headers[FILE_NAME_HEADER];
    const name = uploadName(Array.isArray(nameHeader) ? nameHeader[0] : nameHeader);
    const dir = join(o.stagingDir, randomUUID());
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, safeFileName(name));
    const written = await new Promise<boolean>((resolveWrite) => {
      let bytes = 0;
      const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > o.maxFileBytes) {
          req.unpipe(out);
          out.destroy();
          req.resume();
          resolveWrite(false);
        }
      });
      req.pipe(out);
      out.on('finish', () => resolveWrite(bytes <= o.maxFileBytes));
      out.on('error', () => resolveWrite(false));
      req.on('error', () => resolveWrite(false));
    });
    if (!written) {
      await rm(dir, { recursive: true, force: true });
      o.reply(res, 413, fail({ kind: 'invalid_input', message: 'the file could not be received' }));
      return;
    }
    o.reply(res, 200, ok(await o.grants.mint([{ path: file, name }], 'upload')));
  };
}
