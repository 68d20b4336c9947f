import type { EventChannelName, PayloadOf } from '../../../src-shared/ipc/contract';

export type EventListener = (channel: EventChannelName, payload: unknown) => void;
export interface Disposable {
  dispose(): void;
}

/** Where main-side modules publish bridge events; each host forwards them to its pages. */
export interface BridgeEvents {
  emit<N extends EventChannelName>(channel: N, payload: PayloadOf<N>): void;
  subscribe(listener: EventListener): Disposable;
}

export function createBridgeEvents(): BridgeEvents {
  const listeners = new Set<EventListener>();
  return {
    emit(channel, payload) {
      for (const l of [...listeners]) {
        try {
          l(channel, payload);
        } catch {
          // one broken page must not stop the others from hearing the event
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
  };
}
