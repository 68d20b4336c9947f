import { create } from 'zustand';
import type { BridgeError, ExecutorMetrics, ExecutorStatus } from '../../../src-shared/ipc';
import { bridge, idle, loadInto, loaded, settle, settleInto, type Loadable } from './bridge';

interface ExecutorState {
  readonly status: Loadable<ExecutorStatus>;
  readonly busy: 'pause' | 'resume' | 'sync' | null;
  readonly actionError: Readonly<BridgeError> | null;
  /** Its figures since it started (null: no executor runs). */
  readonly metrics: Loadable<ExecutorMetrics | null>;
  load(): Promise<void>;
  loadMetrics(): Promise<void>;
  listen(): () => void;
  pause(): Promise<void>;
  resume(): Promise<void>;
  syncNow(): Promise<void>;
}

export const useExecutorStore = create<ExecutorState>()((set, get) => {
  const act = async (busy: 'pause' | 'resume' | 'sync') => {
    set({ busy, actionError: null });
    const b = bridge().executor;
    const r = await settle(() =>
      busy === 'pause' ? b.pause() : busy === 'resume' ? b.resume() : b.syncNow(),
    );
    set(r.ok ? { busy: null, status: settleInto(get().status, r) } : { busy: null, actionError: r.error });
  };
  return {
    status: idle(),
    busy: null,
    actionError: null,
    metrics: idle(),
    async loadMetrics() {
      await loadInto(set, get, 'metrics', () => bridge().executor.metrics());
    },
    async load() {
      await loadInto(set, get, 'status', () => bridge().executor.status());
    },
    listen() {
      return bridge().executor.onDidChangeStatus((s) => set({ status: loaded(s) }));
    },
    pause: () => act('pause'),
    resume: () => act('resume'),
    syncNow: () => act('sync'),
  };
});
