import { pathToFileURL } from 'node:url';
import { net, type Protocol } from 'electron';
import type { MediaRegistry } from '../core/bridge/media-registry';
import { MEDIA_SCHEME, previewIdOf } from '../host/media-url';

export { MEDIA_SCHEME } from '../host/media-url';

type FetchFile = (fileUrl: string, init: { headers: Headers }) => Promise<Response>;

const notFound = () => new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });

/**
 * Answers one `postdesk-media://file/<id>` request: the registered file of that id, or 404. Unknown
 * ids, any other shape (traversal, encoded slashes, other hosts) and files whose real path moved
 * (a symlink swapped in after the user added it) are all refused the same way.
 */
export async function mediaResponse(
  request: Pick<Request, 'url' | 'method' | 'headers'>,
  registry: Pick<MediaRegistry, 'resolveForServing'>,
  fetchFile: FetchFile = (url, init) => net.fetch(url, init),
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
  const id = previewIdOf(request.url);
  if (!id) return notFound();
  const file = await registry.resolveForServing(id);
  if (!file) return notFound();
  // Only the Range header goes on: the page cannot steer anything else about the file read.
  const headers = new Headers();
  const range = request.headers.get('range');
  if (range) headers.set('range', range);
  const res = await fetchFile(pathToFileURL(file.path).toString(), { headers });
  const out = new Headers(res.headers);
  out.set('content-type', file.mime);
  out.set('x-content-type-options', 'nosniff');
  out.set('cache-control', 'no-store');
  return new Response(res.body, { status: res.status, headers: out });
}

/** Serves previews in a session's protocol registry (the main window's). */
export function registerMediaProtocol(protocol: Pick<Protocol, 'handle'>, registry: MediaRegistry): void {
  protocol.handle(MEDIA_SCHEME, (request) => mediaResponse(request, registry));
}
