import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { openForReading } from '../files';

export interface PutOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly path: string;
  readonly size: number;
  readonly dispatcher?: Dispatcher | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Bytes handed to the socket so far. */
  readonly onProgress?: ((sent: number) => void) | undefined;
  /** A bandwidth cap, like curl's `--limit-rate`. */
  readonly maxBytesPerSecond?: number | undefined;
}

export interface PutResponse {
  readonly status: number;
  readonly text: string;
}

const MAX_CHUNK = 1024 * 1024;
const MIN_CHUNK = 16 * 1024;
// A chunk this large never fits under a socket's high-water mark (64 KiB by default), so the HTTP client waits
// for 'drain' — every byte of it in the kernel — before it asks for the next chunk. Only then is reusing the
// buffer it came in safe. Smaller chunks (a low rate cap) get a buffer of their own each.
const REUSE_FROM = 256 * 1024;

/**
 * The file's bytes, `chunk` at a time, read into two fixed buffers in turn: while the client sends one, the next
 * is read into the other. Memory stays at two chunks whatever the size, and nothing is allocated per chunk (a
 * fresh 1 MiB buffer per read made the garbage collector the upload's largest cost and its RSS balloon).
 */
async function* fileChunks(opts: PutOptions, chunk: number): AsyncGenerator<Uint8Array> {
  const reuse = chunk >= REUSE_FROM;
  const pool = reuse ? [Buffer.allocUnsafeSlow(chunk), Buffer.allocUnsafeSlow(chunk)] : [];
  const fh = await openForReading(opts.path);
  try {
    let pos = 0;
    let turn = 0;
    const readAt = async (at: number): Promise<Uint8Array> => {
      const buf = reuse ? (pool[turn++ % 2] as Buffer) : Buffer.allocUnsafeSlow(chunk);
      const want = Math.min(chunk, opts.size - at);
      const { bytesRead } = await fh.read(buf, 0, want, at);
      return buf.subarray(0, bytesRead);
    };
    let next = opts.size > 0 ? readAt(0) : null;
    while (next) {
      const view = await next;
      if (view.length === 0) break; // the file shrank: the server sees a short body and refuses it
      pos += view.length;
      // The read-ahead goes into the other buffer: the one yielded two turns ago, sent and drained by now.
      next = pos < opts.size ? readAt(pos) : null;
      next?.catch(() => undefined);
      yield view;
    }
  } finally {
    await fh.close();
  }
}

async function* fileBody(opts: PutOptions): AsyncGenerator<Uint8Array> {
  const rate = opts.maxBytesPerSecond;
  // A capped upload reads ~100 ms of data at a time, so the rate holds smoothly rather than in bursts.
  const chunk = rate ? Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.floor(rate / 10))) : MAX_CHUNK;
  const started = performance.now();
  let sent = 0;
  for await (const buf of fileChunks(opts, chunk)) {
    if (rate) {
      const due = started + ((sent + buf.length) / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait, undefined, { signal: opts.signal });
    }
    yield buf;
    // Asked for the next chunk: the client has handed this one to the socket.
    sent += buf.length;
    opts.onProgress?.(sent);
  }
}

/**
 * PUTs a file to a presigned address, streamed from disk with an exact content-length, so memory stays flat
 * whatever the size. Resolves with the status and body (an error body explains a refusal); rejects only below HTTP.
 */
export async function putFile(opts: PutOptions): Promise<PutResponse> {
  // The service refuses empty media; an empty file here was read before its writer finished.
  if (!(opts.size > 0)) throw new Error(`${opts.path} is empty (0 bytes); nothing to upload`);
  // An async iterable body: the client pulls the next chunk only when the socket has taken the last one, and
  // nothing is read before it starts (so no bytes can be lost while it waits for a connection).
  // undici takes any async iterable body (its runtime checks for one), though its types list only streams. Not
  // Readable.from: that reads ahead into its own queue, past the drain that makes reusing a buffer safe.
  const body = fileBody(opts) as AsyncIterable<Uint8Array> as unknown as Readable;
  // Loaded with the first upload: a daemon whose agents make no media never loads undici (api/http1.ts says why).
  const { request } = await import('undici');
  const res = await request(opts.url, {
    method: 'PUT',
    headers: { ...opts.headers, 'content-length': String(opts.size) },
    body,
    dispatcher: opts.dispatcher,
    signal: opts.signal,
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}
