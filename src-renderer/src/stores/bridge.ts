import type { BridgeError, BridgeResult, PostdeskBridge } from '../../../src-shared/ipc';

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
