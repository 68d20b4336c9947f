import { create } from 'zustand';

export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  readonly id: number;
  readonly tone: ToastTone;
  readonly message: string;
}

interface ToastState {
  readonly toasts: readonly Toast[];
  push(tone: ToastTone, message: string): void;
  dismiss(id: number): void;
}

let nextId = 1;
const LIFETIME_MS = { info: 4000, success: 4000, warning: 7000, error: 9000 } as const;

/** Transient notices: results of actions and the host's own notices. */
export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  push(tone, message) {
    const id = nextId++;
    set({ toasts: [...get().toasts.slice(-3), { id, tone, message }] });
    setTimeout(() => get().dismiss(id), LIFETIME_MS[tone]);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

export const toast = (tone: ToastTone, message: string): void => useToastStore.getState().push(tone, message);
