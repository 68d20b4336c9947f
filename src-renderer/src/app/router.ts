import { useSyncExternalStore } from 'react';

/**
 * Hash routing: it works the same from `file://`, a custom protocol and `postdesk web`, and needs
 * no server rewrites. A route is `#/<screen>` with optional `?key=value` parameters.
 */
export interface Route {
  readonly screen: string;
  readonly params: URLSearchParams;
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};
const snapshot = () => window.location.hash;

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = raw.split('?');
  return { screen: path.split('/')[0] ?? '', params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, snapshot);
  return parseRoute(hash);
}

export function hrefOf(screen: string, params?: Readonly<Record<string, string>>): string {
  const q = params ? new URLSearchParams(params).toString() : '';
  return `#/${screen}${q ? `?${q}` : ''}`;
}

export function navigate(screen: string, params?: Readonly<Record<string, string>>): void {
  window.location.hash = hrefOf(screen, params);
}

/**
 * Puts what a screen shows into its address without a new history entry or a remount (the run selected on
 * Automations): a reload, a copied link or a bookmark opens the same.
 */
export function replaceRoute(screen: string, params?: Readonly<Record<string, string>>): void {
  window.history.replaceState(window.history.state, '', hrefOf(screen, params));
}
