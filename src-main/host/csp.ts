/**
 * The renderer's Content Security Policy, one definition for both hosts. Scripts only from the app
 * itself (no inline, no eval); styles allow inline because the calendar injects its stylesheet at run
 * time; media previews come from `postdesk-media:` (Electron) or the web host itself; nothing may
 * frame the app, and it may not post forms or change its base URL.
 */
export interface CspOptions {
  /** Extra `connect-src` sources: the web host's own `ws://127.0.0.1:PORT`. */
  readonly connect?: readonly string[];
  /** For a `<meta>` tag, which cannot carry `frame-ancestors` (browsers ignore it there and warn). */
  readonly meta?: boolean;
  /**
   * electron-vite's dev server only: its React refresh preamble is an inline script and its HMR a
   * WebSocket. Never set for a built app.
   */
  readonly devServer?: string;
}

export function contentSecurityPolicy(opts: CspOptions = {}): string {
  const directives: Record<string, readonly string[]> = {
    'default-src': ["'self'"],
    'script-src': opts.devServer ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'postdesk-media:', 'data:', 'blob:'],
    'media-src': ["'self'", 'postdesk-media:', 'blob:'],
    // Inter ships as files beside the app (src-renderer/src/main.tsx); no font comes from anywhere else.
    'font-src': ["'self'"],
    'connect-src': [
      "'self'",
      ...(opts.connect ?? []),
      ...(opts.devServer ? [opts.devServer.replace(/^http/, 'ws')] : []),
    ],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'frame-src': ["'none'"],
  };
  if (opts.meta) delete directives['frame-ancestors'];
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}
