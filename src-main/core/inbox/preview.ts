/** Preview images larger than this are not shown (the page gets a label instead). */
export const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/**
 * A draft's image as a `data:` URL the page may show under its CSP, or null. Only from the connected service's
 * own origin (where managed uploads live): an address an agent wrote into its output is never fetched, so a
 * draft cannot make Postdesk call an arbitrary host. The page names the draft and the item, never an address.
 */
export async function fetchPreview(
  url: string,
  serviceBaseUrl: string,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
    if (target.origin !== new URL(serviceBaseUrl).origin) return null;
  } catch {
    return null;
  }
  const res = await fetchImpl(target, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  if (!res.ok) return null;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const length = Number(res.headers.get('content-length') ?? '0');
  if (!IMAGE_TYPES.has(type) || length > PREVIEW_MAX_BYTES) {
    await res.body?.cancel();
    return null;
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > PREVIEW_MAX_BYTES) return null;
  return `data:${type};base64,${bytes.toString('base64')}`;
}
