import { create } from 'zustand';
import type { CreatePostRequest } from '../../../src-shared/api/posts';
import type { BridgeError } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';

/** The code `posts:create` answers when the post is saved locally and will be sent later. */
export const OUTBOX_QUEUED = 'OUTBOX_QUEUED';

export const isOutboxQueued = (error: Readonly<BridgeError>): boolean =>
  error.kind === 'network' && error.code === OUTBOX_QUEUED;

/** A post the host saved on this computer that the service has not confirmed yet. */
export interface QueuedPost {
  readonly key: number;
  readonly caption: string;
  readonly accountIds: readonly string[];
  readonly scheduledAt: string | null;
  readonly queuedAt: number;
}

interface OutboxState {
  readonly queued: readonly QueuedPost[];
  /** Records a create answered `OUTBOX_QUEUED`. */
  add(request: Readonly<CreatePostRequest>): void;
  /** Drops the queued posts that now show in the posts list. */
  reconcile(): Promise<void>;
  listen(): () => void;
}

/** The list's `created_at` is the service's clock: allow it to run a little behind ours. */
const CLOCK_SLACK_MS = 5 * 60_000;

let nextKey = 1;

/**
 * What this window queued, so Compose and Posts can show it as pending. The host's outbox sends it
 * (every minute and after each connect) and then fires `posts:didChange {reason: 'created'}`, without
 * naming the outbox entry: so a queued post counts as sent once a delivery with its caption and one
 * of its accounts, created after it was queued, is in the list. Kept in memory only: after a reload
 * the host still sends it, it just no longer shows as pending here.
 */
export const useOutboxStore = create<OutboxState>()((set, get) => ({
  queued: [],
  add(request) {
    const entry: QueuedPost = {
      key: nextKey++,
      caption: request.caption,
      accountIds: request.targets.map((t) => t.social_account_id),
      scheduledAt: request.scheduled_at ?? null,
      queuedAt: Date.now(),
    };
    set({ queued: [...get().queued, entry] });
  },
  async reconcile() {
    if (get().queued.length === 0) return;
    const r = await settle(() => bridge().posts.list({ limit: 200 }));
    if (!r.ok) return;
    const sent = (q: QueuedPost) =>
      r.value.posts.some(
        (d) =>
          d.caption === q.caption &&
          q.accountIds.includes(d.social_account_id) &&
          Date.parse(d.created_at) >= q.queuedAt - CLOCK_SLACK_MS,
      );
    set({ queued: get().queued.filter((q) => !sent(q)) });
  },
  listen() {
    return bridge().posts.onDidChange((e) => {
      if (e.reason === 'created' || e.reason === 'refresh') void get().reconcile();
    });
  },
}));
