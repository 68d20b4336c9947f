import { create } from 'zustand';
import type { BridgeError, BridgeResult } from '../../../src-shared/ipc';

interface ServiceState {
  /** Why the last read from the service failed, while it keeps failing; null once it answers again. */
  readonly failing: Readonly<BridgeError> | null;
  /** When it started failing (ms since the epoch). */
  readonly since: number | null;
  report(outcome: Readonly<BridgeError> | null): void;
}

/** An answer that says the service itself is away: no answer at all, or its own failure (5xx, overloaded). */
export const isServiceDown = (e: Readonly<BridgeError>): boolean =>
  (e.kind === 'network' && e.code !== 'OUTBOX_QUEUED') ||
  (e.kind === 'api' && e.status !== undefined && (e.status >= 500 || e.status === 429));

/**
 * Whether the service is answering, as the screens' own reads find it: the sidebar says so on every screen,
 * including the ones that read nothing from the service (Bulk's history, Settings).
 */
export const useServiceStore = create<ServiceState>()((set, get) => ({
  failing: null,
  since: null,
  report(outcome) {
    if (outcome && isServiceDown(outcome)) {
      set({ failing: outcome, since: get().since ?? Date.now() });
    } else if (get().failing) {
      set({ failing: null, since: null });
    }
  },
}));

/** Stores call this with the result of each read from the service; it passes the result through. */
export function noteService<T extends BridgeResult<unknown>>(r: T): T {
  useServiceStore.getState().report(r.ok ? null : r.error);
  return r;
}
