/**
 * Redirect URIs: a client registers https addresses, or http addresses on a loopback host for a native
 * app's local listener (RFC 8252 §7.3). A loopback redirect matches whatever its port, since the app takes a
 * free one each time; every other redirect matches exactly (OAuth 2.1 §4.1.1).
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

const parse = (uri: string): URL | null => (URL.canParse(uri) ? new URL(uri) : null);

const isLoopbackHttp = (url: URL): boolean => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);

/** Why `uri` cannot be registered as a redirect URI, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  const url = parse(uri);
  if (!url) return `redirect_uris: "${uri.slice(0, 100)}" is not an absolute URL`;
  if (url.hash !== '' || uri.includes('#')) return 'redirect_uris: a redirect URI may not have a fragment';
  if (url.username !== '' || url.password !== '')
    return 'redirect_uris: a redirect URI may not carry a user name or password';
  if (url.protocol === 'https:' || isLoopbackHttp(url)) return null;
  return `redirect_uris: ${url.protocol}//${url.host} is not allowed: use https, or http on a loopback address (127.0.0.1, [::1] or localhost)`;
}

/** True when the redirect URI of a request matches one the client registered. */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  const req = parse(requested);
  const reg = parse(registered);
  if (!req || !reg || !isLoopbackHttp(req) || !isLoopbackHttp(reg)) return false;
  // Only the port is free: the host, path and query must be the registered ones.
  return (
    req.hostname === reg.hostname &&
    req.pathname === reg.pathname &&
    req.search === reg.search &&
    req.hash === '' &&
    req.username === '' &&
    req.password === ''
  );
}
