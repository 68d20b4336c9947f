import { create } from 'zustand';
import type { DeliveryFailed } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';

interface DeliveryFailuresState {
  /** Failures reported in this session and not dismissed yet, newest first. */
  readonly failures: readonly DeliveryFailed[];
  listen(): () => void;
  /** Asks the host now instead of waiting for its next poll (it answers only unreported failures). */
  check(): Promise<void>;
  dismiss(id: string): void;
}

/** At most this many notices stay on screen; older ones are still on the Posts screen as `failed`. */
const KEEP = 5;

export const useDeliveryFailuresStore = create<DeliveryFailuresState>()((set, get) => {
  const add = (list: readonly DeliveryFailed[]) => {
    const known = new Set(get().failures.map((f) => f.id));
    const fresh = list.filter((f) => !known.has(f.id));
    if (fresh.length > 0) set({ failures: [...fresh, ...get().failures].slice(0, KEEP) });
  };
  return {
    failures: [],
    listen() {
      return bridge().posts.onDidFailDelivery((f) => add([f]));
    },
    async check() {
      const r = await settle(() => bridge().posts.checkFailures());
      if (r.ok) add(r.value.failed);
    },
    dismiss(id) {
      set({ failures: get().failures.filter((f) => f.id !== id) });
    },
  };
});
