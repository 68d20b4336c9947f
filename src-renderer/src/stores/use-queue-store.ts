import { create } from 'zustand';
import type { BridgeResult } from '../../../src-shared/ipc';
import type {
  AccountUpcoming,
  QueueAddRequest,
  QueueAddResult,
  QueueMoveRequest,
  QueuePlan,
} from '../../../src-shared/ipc/queue';
import type { AccountQueue, QueueSchedule } from '../../../src-shared/queue';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

/**
 * Upcoming slots read per account (the most the bridge gives): the Queue grid pages through the weeks they cover.
 */
export const UPCOMING_COUNT = 200;

interface QueueState {
  readonly schedules: Loadable<readonly AccountQueue[]>;
  readonly upcoming: Loadable<readonly AccountUpcoming[]>;
  load(): Promise<void>;
  save(accountId: string, schedule: QueueSchedule): Promise<BridgeResult<AccountQueue | null>>;
  /**
   * Changes posting times from the schedules as saved now (read again first: another window or the CLI may have
   * changed them since the page loaded), one account after the other, then one reload; stops at the first refusal.
   */
  saveWith(
    change: (
      saved: readonly AccountQueue[],
    ) => readonly { readonly account_id: string; readonly schedule: QueueSchedule }[],
  ): Promise<BridgeResult<number>>;
  /** Where the post would go now: one time, or one per account when they share no free slot. */
  plan(targets: QueueAddRequest['targets']): Promise<BridgeResult<QueuePlan>>;
  add(post: QueueAddRequest): Promise<BridgeResult<QueueAddResult>>;
  move(req: QueueMoveRequest): Promise<BridgeResult<true>>;
}

export const useQueueStore = create<QueueState>()((set, get) => ({
  schedules: idle(),
  upcoming: idle(),
  async load() {
    set({ schedules: loading(get().schedules), upcoming: loading(get().upcoming) });
    const s = await settle(() => bridge().queue.schedules());
    set({ schedules: settleInto(get().schedules, s.ok ? { ok: true, value: s.value.queues } : s) });
    const u = noteService(await settle(() => bridge().queue.upcoming({ count: UPCOMING_COUNT })));
    set({ upcoming: settleInto(get().upcoming, u.ok ? { ok: true, value: u.value.accounts } : u) });
  },
  async save(accountId, schedule) {
    const r = await settle(() => bridge().queue.set({ account_id: accountId, schedule }));
    if (r.ok) void get().load();
    return r.ok ? { ok: true, value: r.value.queue } : r;
  },
  async saveWith(change) {
    let saved = 0;
    try {
      const now = await settle(() => bridge().queue.schedules());
      if (!now.ok) return now;
      for (const e of change(now.value.queues)) {
        const r = await settle(() => bridge().queue.set({ account_id: e.account_id, schedule: e.schedule }));
        if (!r.ok) return r;
        saved += 1;
      }
      return { ok: true, value: saved };
    } finally {
      // Awaited: the grid shows the change by the time the caller says it is done.
      if (saved > 0) await get().load();
    }
  },
  async plan(targets) {
    return noteService(await settle(() => bridge().queue.plan({ targets: [...targets] })));
  },
  async add(post) {
    const r = noteService(await settle(() => bridge().queue.add(post)));
    if (r.ok) void get().load();
    return r;
  },
  async move(req) {
    const r = noteService(await settle(() => bridge().queue.move(req)));
    void get().load();
    return r.ok ? { ok: true, value: true } : r;
  },
}));
