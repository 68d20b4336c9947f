import { create } from 'zustand';
import { INBOX_ALL, type AppRoute } from '../../../src-shared/ipc';
import { navigate } from '../app/router';
import { bridge, settle } from './bridge';

interface DeepLinksState {
  /**
   * Bumped on every deep link: the shell keys the screen with it, so a link to the screen already
   * open remounts it and the screen reads its new parameters (the post or run to show).
   */
  readonly visit: number;
  /** Subscribes to `onDidOpenRoute`, then takes the link that arrived before the page did (once). */
  listen(): () => void;
  open(route: Readonly<AppRoute>): void;
}

/** Where a route leads: a post opens on Posts (`?id=` is the delivery), a run in Automations, a run's drafts in the inbox. */
export function hashParamsOf(route: Readonly<AppRoute>): {
  readonly screen: string;
  readonly params: Readonly<Record<string, string>>;
} {
  if (route.kind === 'post') return { screen: 'posts', params: { id: route.id } };
  if (route.kind === 'inbox')
    return { screen: 'inbox', params: route.id === INBOX_ALL ? {} : { run: route.id } };
  return { screen: 'automations', params: { run: route.id } };
}

export const useDeepLinksStore = create<DeepLinksState>()((set, get) => ({
  visit: 0,
  listen() {
    let live = true;
    const off = bridge().app.onDidOpenRoute((route) => get().open(route));
    // Subscribe first, then ask: a link that comes in between is delivered by the event.
    void settle(() => bridge().app.pendingRoute()).then((r) => {
      if (live && r.ok && r.value.route) get().open(r.value.route);
    });
    return () => {
      live = false;
      off();
    };
  },
  open(route) {
    const { screen, params } = hashParamsOf(route);
    set({ visit: get().visit + 1 });
    navigate(screen, params);
  },
}));
