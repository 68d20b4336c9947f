import type { AppRoute } from '../../../src-shared/ipc/app';
import type { BridgeEvents } from './events';

export interface RouteInbox {
  /** Shows a route: sends `app:didOpenRoute` now and keeps it for a page that has not subscribed yet. */
  open(route: Readonly<AppRoute>): void;
  /** The kept route, or null; taking it clears it (`app:pendingRoute`). */
  take(): AppRoute | null;
}

/**
 * Holds the last deep link until a page takes it: a link that opens a new window arrives before the
 * page has subscribed to `onDidOpenRoute`, and would otherwise be lost. Kept for `ttlMs` only, so a
 * reload much later does not jump to an old link.
 */
export function createRouteInbox(
  events: BridgeEvents,
  opts: { ttlMs?: number; now?: () => number } = {},
): RouteInbox {
  const ttl = opts.ttlMs ?? 2 * 60_000;
  const now = opts.now ?? Date.now;
  let pending: { route: AppRoute; at: number } | null = null;
  return {
    open(route) {
      pending = { route: { kind: route.kind, id: route.id }, at: now() };
      events.emit('app:didOpenRoute', pending.route);
    },
    take() {
      const p = pending;
      pending = null;
      return p && now() - p.at <= ttl ? p.route : null;
    },
  };
}
