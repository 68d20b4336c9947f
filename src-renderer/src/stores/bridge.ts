import type { BridgeError, BridgeResult, PostdeskBridge } from '../../../src-shared/ipc';

/** The bridge, for stores only: screens never call it directly. */
export function bridge(): PostdeskBridge {
  const b = window.postdesk;
  if (!b) throw new Error('window.postdesk is missing: open Postdesk through its window or `postdesk web`');
  return b;
}

/** Turns a thrown transport failure into the same typed error a failed call returns. */
export async function settle<T>(call: () => Promise<BridgeResult<T>>): Promise<BridgeResult<T>> {
  try {
    return await call();
  } catch (err) {
    const error: BridgeError = {
      kind: 'network',
      message: err instanceof Error ? err.message : 'the bridge did not answer',
    };
    return { ok: false, error };
  }
}

/** Data a screen loads: what it has, whether a load is in flight, and why the last one failed. */
export interface Loadable<T> {
  readonly data: T | null;
  readonly loading: boolean;
  readonly error: Readonly<BridgeError> | null;
}

export const idle = <T>(): Loadable<T> => ({ data: null, loading: false, error: null });
export const loading = <T>(prev: Loadable<T>): Loadable<T> => ({ ...prev, loading: true });
export const loaded = <T>(data: T): Loadable<T> => ({ data, loading: false, error: null });
export const failed = <T>(prev: Loadable<T>, error: Readonly<BridgeError>): Loadable<T> => ({
  data: prev.data,
  loading: false,
  error,
});

/** Applies a bridge result to a Loadable: keeps the last good data when a refresh fails. */
export function settleInto<T>(prev: Loadable<T>, result: BridgeResult<T>): Loadable<T> {
  return result.ok ? loaded(result.value) : failed(prev, result.error);
}
