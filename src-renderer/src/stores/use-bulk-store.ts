import { LIMITS } from '../../../src-shared/api/limits';
import { create } from 'zustand';
import type { BulkResult } from '../../../src-shared/api/bulk';
import type {
  BatchSummary,
  BridgeError,
  BulkPlan,
  BulkProgress,
  BulkSubmission,
} from '../../../src-shared/ipc';
import { isImportFileName, notAnImportFile } from '../../../src-shared/ipc/bulk';
import { bridge, failed, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface BulkState {
  readonly plan: Loadable<BulkPlan>;
  readonly submitting: boolean;
  readonly progress: BulkProgress | null;
  /** Batches reported sent so far (one progress event each), whatever the host's index base. */
  readonly batchesSent: number;
  readonly submission: BulkSubmission | null;
  readonly submitError: Readonly<BridgeError> | null;
  readonly history: Loadable<readonly BatchSummary[]>;
  readonly inspected: Readonly<Record<string, Loadable<BulkResult>>>;
  readonly resubmitting: string | null;
  /** Rows fill the posting queue's next free slots instead of reading their times (asked before a file is planned). */
  readonly queue: boolean;
  setQueue(on: boolean): void;
  /** Has the host grant the file (the desktop app reads its path, a browser uploads it), then plans it. */
  planFrom(file: File): Promise<void>;
  /** Plans a CSV chosen in the host's own dialog, where it has one (`file_dialog`). */
  planPicked(): Promise<void>;
  resetPlan(): void;
  submit(): Promise<void>;
  loadHistory(): Promise<void>;
  inspect(batchId: string): Promise<void>;
  resubmitFailed(batchId: string): Promise<BulkSubmission | null>;
  listen(): () => void;
}

export const useBulkStore = create<BulkState>()((set, get) => ({
  plan: idle(),
  submitting: false,
  progress: null,
  batchesSent: 0,
  submission: null,
  submitError: null,
  history: idle(),
  inspected: {},
  resubmitting: null,
  queue: false,
  setQueue(on) {
    set({ queue: on });
  },
  async planFrom(file) {
    if (!isImportFileName(file.name)) {
      // Said before its bytes are sent anywhere: a video dropped here by mistake is not uploaded to be refused.
      const error: BridgeError = { kind: 'invalid_input', message: notAnImportFile(file.name) };
      set({ plan: failed(idle(), error), submission: null, submitError: null, progress: null });
      return;
    }
    set({ plan: loading(idle()), submission: null, submitError: null, progress: null, batchesSent: 0 });
    const granted = await settle(() => bridge().files.grant([file]));
    const grant = granted.ok ? granted.value.files[0]?.grant : undefined;
    if (!grant) {
      const error: BridgeError = granted.ok
        ? {
            kind: 'invalid_input',
            message: `${file.name} was not received: ${granted.value.skipped[0]?.reason ?? 'Postdesk did not take it.'}`,
          }
        : granted.error;
      set({ plan: failed(get().plan, error) });
      return;
    }
    const r = await settle(() => bridge().bulk.plan({ source: { grant }, queue: get().queue }));
    set({ plan: settleInto(get().plan, r) });
  },
  async planPicked() {
    const picked = await settle(() => bridge().files.pick({ purpose: 'csv' }));
    const grant = picked.ok ? picked.value.files[0]?.grant : undefined;
    if (!picked.ok) set({ plan: settleInto(get().plan, picked) });
    if (!grant) return;
    set({ plan: loading(idle()), submission: null, submitError: null, progress: null, batchesSent: 0 });
    const r = await settle(() => bridge().bulk.plan({ source: { grant }, queue: get().queue }));
    set({ plan: settleInto(get().plan, r) });
  },
  resetPlan() {
    set({ plan: idle(), submission: null, submitError: null, progress: null, batchesSent: 0 });
  },
  async submit() {
    const plan = get().plan.data;
    if (!plan || get().submitting) return;
    set({ submitting: true, submitError: null, submission: null, progress: null, batchesSent: 0 });
    const r = await settle(() => bridge().bulk.submit({ plan_id: plan.plan_id }));
    set(r.ok ? { submitting: false, submission: r.value } : { submitting: false, submitError: r.error });
    void get().loadHistory();
  },
  async loadHistory() {
    set({ history: loading(get().history) });
    const r = await settle(() => bridge().bulk.history());
    set({ history: settleInto(get().history, r.ok ? { ok: true, value: r.value.batches } : r) });
  },
  async inspect(batchId) {
    const prev = get().inspected[batchId] ?? idle<BulkResult>();
    set({ inspected: { ...get().inspected, [batchId]: loading(prev) } });
    const r = noteService(
      await settle(() => bridge().bulk.inspect({ batch_id: batchId, limit: LIMITS.pageSizeMax })),
    );
    set({ inspected: { ...get().inspected, [batchId]: settleInto(prev, r) } });
  },
  async resubmitFailed(batchId) {
    set({ resubmitting: batchId, submitError: null });
    const r = await settle(() => bridge().bulk.resubmitFailed({ batch_id: batchId }));
    set({ resubmitting: null, ...(r.ok ? {} : { submitError: r.error }) });
    void get().loadHistory();
    return r.ok ? r.value : null;
  },
  listen() {
    return bridge().bulk.onDidProgress((progress) => set({ progress, batchesSent: get().batchesSent + 1 }));
  },
}));
