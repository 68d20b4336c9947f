import type { BridgeError, BridgeResult, PostdeskBridge } from '../../../src-shared/ipc';
import { loading, settleInto, type Loadable } from './loadable';

export * from './loadable';

/** The bridge, for stores only: screens never call it directly. */
export function bridge(): PostdeskBridge {
  const b = window.postdesk;
  if (!b) throw new Error('Postdesk is not attached to this page');
  return b;
}

/** Turns a thrown transport failure into the same typed error a failed call returns. */
export async function settle<T>(call: () => Promise<BridgeResult<T>>): Promise<BridgeResult<T>> {
  try {
    return await call();
  } catch {
    const error: BridgeError = { kind: 'network', message: 'Postdesk did not answer this page.' };
    return { ok: false, error };
  }
}

/**
 * Loads one `Loadable` field of a store: marks it loading, calls, and settles the answer into it (a failure
 * keeps the last value beside the error). Returns the answer for a store that does more with it.
 */
export async function loadInto<K extends string, T>(
  set: (partial: { [P in K]: Loadable<NoInfer<T>> }) => void,
  get: () => { readonly [P in K]: Loadable<NoInfer<T>> },
  key: K,
  call: () => Promise<BridgeResult<T>>,
): Promise<BridgeResult<T>> {
  set({ [key]: loading(get()[key]) } as { [P in K]: Loadable<T> });
  const r = await settle(call);
  set({ [key]: settleInto(get()[key], r) } as { [P in K]: Loadable<T> });
  return r;
}

/** The part of a store that shows one loaded value and the buttons that change it. */
interface ActionSlice<T, B extends string> {
  readonly state: Loadable<T>;
  readonly busy: B | null;
  /** Why the last button's call itself failed; the value it would have changed stays as it was. */
  readonly actionError: Readonly<BridgeError> | null;
}

/** `load` and `act` for such a store: a button's answer replaces the value, its failure goes to `actionError`. */
export function loadableActions<T, B extends string>(
  set: (partial: Partial<ActionSlice<T, B>>) => void,
  get: () => ActionSlice<T, B>,
) {
  return {
    async load(call: () => Promise<BridgeResult<T>>): Promise<void> {
      await loadInto(set, get, 'state', call);
    },
    async act(busy: B, call: () => Promise<BridgeResult<T>>): Promise<void> {
      set({ busy, actionError: null });
      const r = await settle(call);
      set(r.ok ? { busy: null, state: settleInto(get().state, r) } : { busy: null, actionError: r.error });
    },
  };
}
