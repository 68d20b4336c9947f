import { create } from 'zustand';
import type { BridgeResult, InboxList, InboxOutcomes } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface InboxState {
  readonly list: Loadable<InboxList>;
  /** How many drafts wait, all runs together (the navigation's count); null before the first answer. */
  readonly waiting: number | null;
  /** The run the list is filtered to, or null for every run. */
  readonly runId: string | null;
  /** Which action is under way, for the buttons' labels. */
  readonly busy: 'approve' | 'reject' | 'edit' | null;
  load(runId?: string | null): Promise<void>;
  /** Keeps the count current: the host says when drafts change (a run made some, a person acted). */
  listen(): () => void;
  /** Now (nothing given), at a time, or into the posting queue (each at its accounts' next free slot). */
  approve(
    postIds: readonly string[],
    when?: { readonly at?: string; readonly queue?: true },
  ): Promise<BridgeResult<InboxOutcomes>>;
  reject(postIds: readonly string[]): Promise<BridgeResult<InboxOutcomes>>;
  edit(postId: string, caption: string): Promise<BridgeResult<InboxOutcomes['results'][number]>>;
  preview(postId: string, index: number): Promise<string | null>;
}

export const useInboxStore = create<InboxState>()((set, get) => ({
  list: idle(),
  waiting: null,
  runId: null,
  busy: null,
  async load(runId = get().runId) {
    set({ list: loading(get().list), runId });
    const r = noteService(await settle(() => bridge().inbox.list(runId ? { run_id: runId } : {})));
    set({ list: settleInto(get().list, r) });
    if (r.ok && !runId) set({ waiting: r.value.total });
  },
  listen() {
    return bridge().inbox.onDidChange(({ total }) => {
      set({ waiting: total });
      void get().load();
    });
  },
  async approve(postIds, when = {}) {
    set({ busy: 'approve' });
    const r = await settle(() => bridge().inbox.approve({ post_ids: [...postIds], ...when }));
    set({ busy: null });
    void get().load();
    return r;
  },
  async reject(postIds) {
    set({ busy: 'reject' });
    const r = await settle(() => bridge().inbox.reject({ post_ids: [...postIds] }));
    set({ busy: null });
    void get().load();
    return r;
  },
  async edit(postId, caption) {
    set({ busy: 'edit' });
    const r = await settle(() => bridge().inbox.edit({ post_id: postId, caption }));
    set({ busy: null });
    void get().load();
    return r;
  },
  async preview(postId, index) {
    const r = await settle(() => bridge().inbox.preview({ post_id: postId, index }));
    return r.ok ? r.value.data_url : null;
  },
}));
