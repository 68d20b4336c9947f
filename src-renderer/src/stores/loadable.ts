import type { BridgeError, BridgeResult, ListFreshness } from '../../../src-shared/ipc';

/**
 * Data a screen loads: what it has, whether a load is in flight, why the last one failed, and when the data
 * it has was fetched. A failed refresh keeps the data and its time, so the screen can say how old it is.
 */
export interface Loadable<T> {
  readonly data: T | null;
  readonly loading: boolean;
  readonly error: Readonly<BridgeError> | null;
  /** When `data` was fetched (ms since the epoch), or null before the first success. */
  readonly fetchedAt: number | null;
}

export const idle = <T>(): Loadable<T> => ({ data: null, loading: false, error: null, fetchedAt: null });
export const loading = <T>(prev: Loadable<T>): Loadable<T> => ({ ...prev, loading: true });
export const loaded = <T>(data: T, fetchedAt: number = Date.now()): Loadable<T> => ({
  data,
  loading: false,
  error: null,
  fetchedAt,
});
export const failed = <T>(prev: Loadable<T>, error: Readonly<BridgeError>): Loadable<T> => ({
  ...prev,
  loading: false,
  error,
});

/** Applies a bridge result to a Loadable: keeps the last good data (and when it came) when a refresh fails. */
export function settleInto<T>(prev: Loadable<T>, result: BridgeResult<T>): Loadable<T> {
  return result.ok ? loaded(result.value) : failed(prev, result.error);
}

/**
 * A list the host read from its local index: the rows are shown, but how current they are is what the
 * index says. A refresh still under way keeps the list loading (ask again after `RECHECK_MS`); a failed one
 * keeps the rows and becomes the screen's error, with the time of the last refresh that worked.
 */
export function fromIndex<T>(data: T, freshness: Readonly<ListFreshness> | undefined): Loadable<T> {
  if (!freshness) return loaded(data);
  return {
    data,
    loading: freshness.refreshing,
    error: freshness.error,
    fetchedAt: freshness.refreshed_at ? Date.parse(freshness.refreshed_at) : null,
  };
}

/** How long to wait before asking again when the index said a refresh was still under way. */
export const RECHECK_MS = 2_500;
