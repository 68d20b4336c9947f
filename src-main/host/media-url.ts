import { PREVIEW_ID } from '../core/bridge/media-registry';

/** The Electron preview scheme: `postdesk-media://file/<id>`. */
export const MEDIA_SCHEME = 'postdesk-media';
export const MEDIA_HOST = 'file';

export const desktopPreviewUrl = (id: string): string => `${MEDIA_SCHEME}://${MEDIA_HOST}/${id}`;

/**
 * The preview id a `postdesk-media:` URL names, or null. Only one exact shape is accepted, checked on
 * the raw text (before any URL normalisation could fold `..` or decode `%2f`): a URL never names a path.
 */
export function previewIdOf(raw: string): string | null {
  const m = /^postdesk-media:\/\/file\/([^/?#]+)\/?(?:[?#].*)?$/i.exec(raw);
  const id = m?.[1]?.toLowerCase();
  return id && PREVIEW_ID.test(id) ? id : null;
}
