import { createLimit } from '../core/common/limit';
import type { ThumbnailPort } from '../core/bridge/host-ports';

/** Image types shown as thumbnails; SVG is not one (it is a document, not a picture). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** A thumbnail is a picture at row size: a bigger file is not fetched whole to draw 40 pixels. */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
const CACHED = 300;
const PARALLEL = 4;

export interface ThumbnailOptions {
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

/**
 * Media of posts as `data:` URLs the page's CSP allows (`img-src` has no remote hosts): fetched by main, only
 * over https or from the service's own origin (the offline sandbox is plain http on loopback), only JPEG, PNG or
 * WebP, at most 2 MiB, with a timeout, never with a credential. Anything else has no thumbnail (null).
 */
export function createThumbnails(o: ThumbnailOptions = {}): ThumbnailPort {
  const doFetch = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? 5_000;
  const cache = new Map<string, string | null>();
  const slot = createLimit(PARALLEL);

  const allowed = (raw: string, serviceBase: string): boolean => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    if (url.protocol === 'https:') return true;
    try {
      return url.protocol === 'http:' && url.origin === new URL(serviceBase).origin;
    } catch {
      return false;
    }
  };

  async function load(url: string): Promise<string | null> {
    const res = await doFetch(url, {
      redirect: 'error',
      credentials: 'omit',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok || !res.body) return null;
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!IMAGE_TYPES.has(type)) return null;
    if (Number(res.headers.get('content-length') ?? 0) > THUMBNAIL_MAX_BYTES) {
      await res.body.cancel();
      return null;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > THUMBNAIL_MAX_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
    return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
  }

  return {
    /** The picture at `url` as a data URL, or null (not allowed, not an image, too big, unreachable). */
    async of(url: string, serviceBase: string): Promise<string | null> {
      if (!allowed(url, serviceBase)) return null;
      if (cache.has(url)) return cache.get(url) ?? null;
      let data: string | null;
      try {
        data = await slot(() => load(url));
      } catch {
        return null; // unreachable or too slow now: asked again next time
      }
      if (cache.size >= CACHED) cache.delete(cache.keys().next().value as string);
      cache.set(url, data);
      return data;
    },
  };
}
