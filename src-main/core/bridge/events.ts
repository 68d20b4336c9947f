import type { EventChannelName, PayloadOf } from '../../../src-shared/ipc/contract';
import { errorText } from '../common/error-text';
import { Emitter, type Disposable } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';

/** Returns `false` when there was no page to hear the event (no window, or it is still loading). */
export type EventListener = (channel: EventChannelName, payload: unknown) => boolean | void;

/** Where main-side modules publish bridge events; each host forwards them to its pages. */
export interface BridgeEvents {
  /** Whether some listener delivered it (did not answer `false`). */
  emit<N extends EventChannelName>(channel: N, payload: PayloadOf<N>): boolean;
  subscribe(listener: EventListener): Disposable;
}

interface Envelope {
  readonly channel: EventChannelName;
  readonly payload: unknown;
  delivered: boolean;
}

/** One broken page must not stop the others from hearing an event; its failure goes to the log. */
export function createBridgeEvents(log: Logger = silentLogger): BridgeEvents {
  const emitter = new Emitter<Envelope>((error) =>
    log.warn('a bridge event listener failed', { error: errorText(error) }),
  );
  return {
    emit(channel, payload) {
      const envelope: Envelope = { channel, payload, delivered: false };
      emitter.fire(envelope);
      return envelope.delivered;
    },
    subscribe: (listener) =>
      emitter.event((e) => {
        if (listener(e.channel, e.payload) !== false) e.delivered = true;
      }),
  };
}
