import { create } from 'zustand';
import type { RunDetail, RunRecord } from '../../../src-shared/ipc';
import { bridge, idle, loaded, loading, settle, settleInto, type Loadable } from './bridge';

interface RunsState {
  readonly runs: Loadable<readonly RunRecord[]>;
  readonly selectedId: string | null;
  /** The selected run with its steps and logs, kept live by the executor's events. */
  readonly detail: Loadable<RunDetail>;
  load(): Promise<void>;
  select(id: string | null): Promise<void>;
  listen(): () => void;
}

const newestFirst = (a: RunRecord, b: RunRecord): number =>
  Date.parse(b.started_at ?? b.scheduled_for ?? '') - Date.parse(a.started_at ?? a.scheduled_for ?? '') || 0;

const FINAL = new Set<RunRecord['state']>(['completed', 'failed', 'skipped', 'missed']);

export const useRunsStore = create<RunsState>()((set, get) => {
  // Reads of the selected run can cross: the read a click starts may answer after a newer one that a finished
  // run's event started, and would show the run as still running. Only the newest read is applied.
  let reads = 0;
  const refresh = async (id: string) => {
    const mine = ++reads;
    const r = await settle(() => bridge().runs.get({ id }));
    if (r.ok && mine === reads && get().selectedId === id) set({ detail: loaded(r.value) });
  };
  return {
    runs: idle(),
    selectedId: null,
    detail: idle(),
    async load() {
      set({ runs: loading(get().runs) });
      const r = await settle(() => bridge().runs.list({ limit: 200 }));
      set({ runs: settleInto(get().runs, r.ok ? { ok: true, value: r.value.runs } : r) });
    },
    async select(id) {
      set({ selectedId: id, detail: id ? loading(idle()) : idle() });
      if (!id) return;
      const mine = ++reads;
      const r = await settle(() => bridge().runs.get({ id }));
      if (get().selectedId !== id || mine !== reads) return;
      set({ detail: settleInto(get().detail, r) });
    },
    listen() {
      const b = bridge().runs;
      const offChange = b.onDidChange(({ run }) => {
        const list = get().runs.data ?? [];
        const next = list.some((r) => r.id === run.id)
          ? list.map((r) => (r.id === run.id ? run : r))
          : [run, ...list].sort(newestFirst);
        set({ runs: { ...get().runs, data: next } });
        const detail = get().detail.data;
        if (detail && detail.run.id === run.id) {
          set({ detail: { ...get().detail, data: { ...detail, run } } });
          // A finished run: read it once more for its complete steps and the logs the executor kept.
          if (FINAL.has(run.state)) void refresh(run.id);
        } else if (get().selectedId === run.id && FINAL.has(run.state)) {
          // Finished while its detail was still loading (a run that fails at once): the read under way may
          // predate the end, so read it again; the newer read wins.
          void refresh(run.id);
        }
      });
      const offStep = b.onDidStepRun((e) => {
        const detail = get().detail.data;
        if (!detail || detail.run.id !== e.run_id) return;
        set({ detail: { ...get().detail, data: { ...detail, steps: [...detail.steps, e.step] } } });
      });
      const offLog = b.onDidLog((e) => {
        const detail = get().detail.data;
        if (!detail || detail.run.id !== e.run_id) return;
        set({ detail: { ...get().detail, data: { ...detail, logs: [...detail.logs, e.line] } } });
      });
      return () => {
        offChange();
        offStep();
        offLog();
      };
    },
  };
});
