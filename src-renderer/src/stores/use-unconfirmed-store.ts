import { create } from 'zustand';
import { bridge, settle } from './bridge';

interface UnconfirmedState {
  /** Deliveries whose time passed without the service saying `posted`, by id. */
  readonly ids: ReadonlySet<string>;
  load(): Promise<void>;
  listen(): () => void;
}

export const useUnconfirmedStore = create<UnconfirmedState>()((set, get) => ({
  ids: new Set(),
  async load() {
    const r = await settle(() => bridge().watch.unconfirmed());
    if (r.ok) set({ ids: new Set(r.value.deliveries.map((d) => d.id)) });
  },
  listen() {
    return bridge().watch.onDidNotConfirm((d) => set({ ids: new Set([...get().ids, d.id]) }));
  },
}));
