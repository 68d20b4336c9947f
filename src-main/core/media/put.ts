import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { createFileReadStream } from '../files';

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

async function* fileBody(opts: PutOptions): AsyncGenerator<Buffer> {
  const rate = opts.maxBytesPerSecond;
  // A capped upload reads ~100 ms of data at a time, so the rate holds smoothly rather than in bursts.
  const chunk = rate ? Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.floor(rate / 10))) : MAX_CHUNK;
  const stream = createFileReadStream(opts.path, { highWaterMark: chunk, start: 0, end: opts.size - 1 });
  const started = performance.now();
  let sent = 0;
  try {
    for await (const buf of stream as AsyncIterable<Buffer>) {
      if (rate) {
        const due = started + ((sent + buf.length) / rate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait, undefined, { signal: opts.signal });
      }
      yield buf;
      sent += buf.length;
      opts.onProgress?.(sent);
    }
  } finally {
    stream.destroy();
  }
}

/**
 * PUTs a file to a presigned address, streamed from disk with an exact content-length, so memory stays flat
 * whatever the size. Resolves with the status and body (an error body explains a refusal); rejects only below HTTP.
 */
export async function putFile(opts: PutOptions): Promise<PutResponse> {
  // The service refuses empty media; an empty file here was read before its writer finished.
  if (!(opts.size > 0)) throw new Error(`${opts.path} is empty (0 bytes); nothing to upload`);
  let body: Readable;
  if (opts.maxBytesPerSecond) {
    body = Readable.from(fileBody(opts), { objectMode: false });
  } else {
    // Uncapped, the file stream goes to the socket as it is; progress only listens in, adding no copy or hop.
    const stream = createFileReadStream(opts.path, {
      highWaterMark: MAX_CHUNK,
      start: 0,
      end: opts.size - 1,
    });
    let sent = 0;
    const count = (chunk: string | Buffer): void => {
      sent += chunk.length;
      opts.onProgress?.(sent);
    };
    // Listening for 'data' now would start the stream flowing before undici takes it (it may still wait
    // for a connection): the bytes would be lost and undici, seeing an ended empty stream, would send
    // `content-length: 0`. So progress listens in only once undici has started the stream itself.
    stream.once('resume', () => stream.on('data', count));
    body = stream;
  }
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
