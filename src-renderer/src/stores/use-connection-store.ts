import { create } from 'zustand';
import type { BridgeError, BridgeResult, ConnectionStatus } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';
import { resetSessionStores } from './reset';

/** Which service the data in the other stores came from; null when not connected. */
const identityOf = (s: ConnectionStatus | null): string | null =>
  s?.state === 'connected' ? (s.offline ? 'offline' : (s.base_url ?? '')) : null;

type Busy = 'connect' | 'offline' | 'disconnect' | null;

interface ConnectionState {
  /** Null until the host has answered once. */
  readonly status: ConnectionStatus | null;
  readonly busy: Busy;
  readonly error: Readonly<BridgeError> | null;
  load(): Promise<void>;
  listen(): () => void;
  /**
   * The key goes straight to the host, which checks it by listing accounts and stores it in the
   * keychain. It is never kept in this store, nor anywhere else in the page.
   */
  connect(baseUrl: string, apiKey: string): Promise<boolean>;
  tryOffline(): Promise<boolean>;
  disconnect(): Promise<void>;
  /** Removes the stored key from the keychain (write-only secrets: there is no way to read it back). */
  forgetKey(): Promise<boolean>;
  clearError(): void;
}

export const useConnectionStore = create<ConnectionState>()((rawSet, get) => {
  // Every status change passes here: a different service (or none) starts from empty stores.
  const set = (patch: Partial<ConnectionState>) => {
    if (
      'status' in patch &&
      get().status !== null &&
      identityOf(patch.status ?? null) !== identityOf(get().status)
    ) {
      resetSessionStores();
    }
    rawSet(patch);
  };
  /** Connecting and going offline: true once connected; any other answer becomes the error shown. */
  const reach = async (
    busy: 'connect' | 'offline',
    call: () => Promise<BridgeResult<ConnectionStatus>>,
    kind: BridgeError['kind'],
    refused: string,
  ): Promise<boolean> => {
    set({ busy, error: null });
    const r = await settle(call);
    if (r.ok && r.value.state === 'connected') {
      set({ busy: null, status: r.value });
      return true;
    }
    set({ busy: null, error: r.ok ? { kind, message: r.value.message ?? refused } : r.error });
    return false;
  };
  return {
    status: null,
    busy: null,
    error: null,
    async load() {
      const r = await settle(() => bridge().connection.status());
      if (r.ok) set({ status: r.value });
      else
        set({
          error: r.error,
          status: {
            state: 'error',
            base_url: null,
            offline: false,
            has_key: false,
            message: r.error.message,
          },
        });
    },
    listen() {
      return bridge().connection.onDidChange((status) => set({ status }));
    },
    connect(baseUrl, apiKey) {
      return reach(
        'connect',
        () => bridge().connection.connect({ base_url: baseUrl, api_key: apiKey }),
        'api',
        'The service did not accept this connection.',
      );
    },
    tryOffline() {
      return reach(
        'offline',
        () => bridge().connection.useOffline(),
        'unavailable',
        'The offline sandbox did not start.',
      );
    },
    async disconnect() {
      set({ busy: 'disconnect', error: null });
      const r = await settle(() => bridge().connection.disconnect());
      set(r.ok ? { busy: null, status: r.value } : { busy: null, error: r.error });
    },
    async forgetKey() {
      const r = await settle(() => bridge().secrets.clear());
      if (!r.ok) {
        set({ error: r.error });
        return false;
      }
      await get().load();
      return r.value.cleared;
    },
    clearError() {
      set({ error: null });
    },
  };
});
