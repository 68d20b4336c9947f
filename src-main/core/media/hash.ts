import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { openForReading } from '../files';

export interface Digests {
  readonly sha256: string;
  readonly md5: string;
  readonly size: number;
}

export interface HashOptions {
  readonly signal?: AbortSignal | undefined;
  /** Bytes hashed so far, after each chunk. */
  readonly onProgress?: ((bytes: number) => void) | undefined;
  readonly chunkBytes?: number | undefined;
  /** Chunks that may be in flight to the worker: the memory bound is `chunkBytes × queueDepth`. */
  readonly queueDepth?: number | undefined;
  /** Files smaller than this are hashed on the calling thread: starting a worker costs more than it saves. */
  readonly workerThreshold?: number | undefined;
}

const DEFAULT_CHUNK = 1024 * 1024;
const DEFAULT_DEPTH = 8;
const DEFAULT_THRESHOLD = 8 * 1024 * 1024;

// Evaluated source rather than a worker file, so the same code runs under tsx, vitest and the app bundle,
// none of which agree on where a separate worker module would live. MD5 is the slower digest, so it gets the
// thread of its own; each chunk goes back to the reader (transferred, never copied) once hashed.
const MD5_WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const md5 = createHash('md5');
parentPort.on('message', (m) => {
  if (m.buf) {
    md5.update(new Uint8Array(m.buf, 0, m.len));
    parentPort.postMessage({ buf: m.buf }, [m.buf]);
  } else {
    parentPort.postMessage({ md5: md5.digest('hex') });
  }
});
`;

async function hashInline(path: string, opts: HashOptions): Promise<Digests> {
  const sha = createHash('sha256');
  const md5 = createHash('md5');
  const fh = await openForReading(path);
  try {
    const buf = Buffer.allocUnsafe(opts.chunkBytes ?? DEFAULT_CHUNK);
    let size = 0;
    for (;;) {
      opts.signal?.throwIfAborted();
      const { bytesRead } = await fh.read(buf, 0, buf.length, size);
      if (bytesRead === 0) break;
      const view = buf.subarray(0, bytesRead);
      sha.update(view);
      md5.update(view);
      size += bytesRead;
      opts.onProgress?.(size);
    }
    return { sha256: sha.digest('hex'), md5: md5.digest('hex'), size };
  } finally {
    await fh.close();
  }
}

/**
 * SHA-256 and MD5 from a single read of the file. The calling thread reads and feeds SHA-256 while a worker
 * feeds MD5 from the same chunks, so the two run in parallel; a fixed pool of chunk buffers passed back and forth
 * keeps memory flat whatever the file size.
 */
export async function hashFile(path: string, opts: HashOptions = {}): Promise<Digests> {
  const fh = await openForReading(path);
  let size: number;
  try {
    size = (await fh.stat()).size;
  } finally {
    await fh.close();
  }
  if (size < (opts.workerThreshold ?? DEFAULT_THRESHOLD)) return hashInline(path, opts);

  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK;
  const depth = Math.max(2, opts.queueDepth ?? DEFAULT_DEPTH);
  const worker = new Worker(MD5_WORKER, { eval: true });
  const free: ArrayBuffer[] = Array.from({ length: depth }, () => new ArrayBuffer(chunkBytes));
  let waiting: (() => void) | null = null;
  let md5Done: ((hex: string) => void) | null = null;
  let failed: ((err: unknown) => void) | null = null;
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  failure.catch(() => undefined);
  worker.on('message', (m: { buf?: ArrayBuffer; md5?: string }) => {
    if (m.buf) {
      free.push(m.buf);
      const wake = waiting;
      waiting = null;
      wake?.();
    } else if (m.md5 !== undefined) {
      md5Done?.(m.md5);
    }
  });
  worker.on('error', (err) => failed?.(err));
  const nextBuffer = async (): Promise<ArrayBuffer> => {
    while (free.length === 0) {
      await Promise.race([new Promise<void>((r) => (waiting = r)), failure]);
    }
    return free.pop() as ArrayBuffer;
  };

  const sha = createHash('sha256');
  const file = await openForReading(path);
  try {
    let pos = 0;
    for (;;) {
      opts.signal?.throwIfAborted();
      const buf = await nextBuffer();
      const { bytesRead } = await file.read(new Uint8Array(buf), 0, chunkBytes, pos);
      if (bytesRead === 0) {
        free.push(buf);
        break;
      }
      sha.update(new Uint8Array(buf, 0, bytesRead));
      worker.postMessage({ buf, len: bytesRead }, [buf]);
      pos += bytesRead;
      opts.onProgress?.(pos);
    }
    const md5 = await Promise.race([
      new Promise<string>((r) => {
        md5Done = r;
        worker.postMessage({ end: true });
      }),
      failure,
    ]);
    return { sha256: sha.digest('hex'), md5, size: pos };
  } finally {
    await file.close();
    await worker.terminate();
  }
}
