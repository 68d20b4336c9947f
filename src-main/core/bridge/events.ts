import type { EventChannelName, PayloadOf } from '../../../src-shared/ipc/contract';

/** Returns `false` when there was no page to hear the event (no window, or it is still loading). */
export type EventListener = (channel: EventChannelName, payload: unknown) => boolean | void;
export interface Disposable {
  dispose(): void;
}

/** Where main-side modules publish bridge events; each host forwards them to its pages. */
export interface BridgeEvents {
  /** Whether some listener delivered it (did not answer `false`). */
  emit<N extends EventChannelName>(channel: N, payload: PayloadOf<N>): boolean;
  subscribe(listener: EventListener): Disposable;
}

export function createBridgeEvents(): BridgeEvents {
  const listeners = new Set<EventListener>();
  return {
    emit(channel, payload) {
      let delivered = false;
      for (const l of [...listeners]) {
        try {
          if (l(channel, payload) !== false) delivered = true;
        } catch {
          // one broken page must not stop the others from hearing the event
        }
      }
      return delivered;
    },
    subscribe(listener) {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
  };
}
