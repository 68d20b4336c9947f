import type { AppRoute } from '../../../src-shared/ipc/app';
import type { BridgeEvents } from './events';

export interface RouteInbox {
  /** Shows a route: sends `app:didOpenRoute` now, and keeps it only when no page heard it. */
  open(route: Readonly<AppRoute>): void;
  /** The kept route, or null; taking it clears it (`app:pendingRoute`). */
  take(): AppRoute | null;
}

/**
 * Holds the last deep link until a page takes it: a link that opens a new window arrives before the
 * page has subscribed to `onDidOpenRoute`, and would otherwise be lost. A link a live page received is
 * not kept (a reload would open it again), and a kept one only for `ttlMs`.
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
      const copy = { kind: route.kind, id: route.id };
      const heard = events.emit('app:didOpenRoute', copy);
      pending = heard ? null : { route: copy, at: now() };
    },
    take() {
      const p = pending;
      pending = null;
      return p && now() - p.at <= ttl ? p.route : null;
    },
  };
}
