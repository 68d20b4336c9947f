/**
 * Hosts whose https links the app opens in the user's browser: the platforms' and article
 * destinations' sites. The connected service's own host is added at call time. One list for both sides:
 * main opens only these, and the page makes a link only of these (anything else is shown as text).
 */
export const EXTERNAL_HOSTS: readonly string[] = [
  // Postdesk's own site (release notes, the guide).
  'postdesk.app',
  'tiktok.com',
  'instagram.com',
  'youtube.com',
  'youtu.be',
  'linkedin.com',
  'x.com',
  'twitter.com',
  'dev.to',
  'hashnode.com',
  'hashnode.dev',
];

/** True for an https URL (no credentials, default port) whose host is, or is under, an allowed host. */
export function isAllowedExternal(raw: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  return hosts.some((h) => {
    const allowed = h.toLowerCase();
    return host === allowed || host.endsWith(`.${allowed}`);
  });
}

/** The host of an https base URL, to allow links into the service's own dashboard. */
export function hostOfHttps(baseUrl: string | null): string | null {
  if (!baseUrl) return null;
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'https:' ? u.hostname : null;
  } catch {
    return null;
  }
}
