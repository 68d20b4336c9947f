import { create } from 'zustand';
import type { LinkState } from '../../../src-shared/ipc/ws-protocol';

interface LinkStoreState {
  /** How the page's link to `postdesk web` stands; always `open` in the desktop app. */
  readonly state: LinkState;
  set(state: LinkState): void;
}

/** Fed by the web bridge (`installWebBridge`'s `onLinkChange`): the app says when the host stops answering. */
export const useLinkStore = create<LinkStoreState>()((set) => ({
  state: 'open',
  set: (state) => set({ state }),
}));
