import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

export { contentTypeOf, resolveStatic } from '../../core/bridge/static-files';

/** Streams a file, honouring one `Range: bytes=a-b` (video previews seek). */
export async function sendFile(
  res: ServerResponse,
  file: string,
  type: string,
  range: string | undefined,
  headers: Readonly<Record<string, string>> = {},
): Promise<void> {
  const st = await stat(file);
  const size = st.size;
  res.setHeader('content-type', type);
  res.setHeader('accept-ranges', 'bytes');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (m && (m[1] || m[2])) {
    let start = m[1] ? Number(m[1]) : size - Number(m[2]);
    let end = m[1] && m[2] ? Number(m[2]) : size - 1;
    start = Math.max(0, start);
    end = Math.min(end, size - 1);
    if (start > end || start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, {
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': end - start + 1,
    });
    createReadStream(file, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { 'content-length': size });
  createReadStream(file).pipe(res);
}
