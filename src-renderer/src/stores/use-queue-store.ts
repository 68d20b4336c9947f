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

/** Upcoming slots listed per account on the Queue screen. */
export const UPCOMING_COUNT = 10;

interface QueueState {
  readonly schedules: Loadable<readonly AccountQueue[]>;
  readonly upcoming: Loadable<readonly AccountUpcoming[]>;
  load(): Promise<void>;
  save(accountId: string, schedule: QueueSchedule): Promise<BridgeResult<AccountQueue | null>>;
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
