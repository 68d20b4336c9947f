import { create } from 'zustand';
import type { BridgeError } from '../../../src-shared/ipc';
import type { QueuedDecision, QueuedPost } from '../../../src-shared/ipc/posts';
import { describeError } from '../app/describe-error';
import { bridge, settle } from './bridge';

/** The code `posts:create` answers when the post is saved locally and will be sent later. */
export const OUTBOX_QUEUED = 'OUTBOX_QUEUED';

export const isOutboxQueued = (error: Readonly<BridgeError>): boolean =>
  error.kind === 'network' && error.code === OUTBOX_QUEUED;

interface OutboxState {
  /** What the host saved on this computer that the service has not confirmed, oldest first. */
  readonly queued: readonly QueuedPost[];
  /** The entry whose decision is being sent, so its buttons wait. */
  readonly deciding: string | null;
  /** Why the last decision did not go through, in words for the person. */
  readonly decisionError: string | null;
  load(): Promise<void>;
  /** The person's answer for a post Postdesk cannot tell was published. */
  decide(entryId: string, decision: QueuedDecision['decision']): Promise<void>;
  listen(): () => void;
}

/**
 * The host's outbox as the Compose and Posts screens show it: posts waiting for the service, and publishes that
 * wait for the person because nobody can tell whether they went out. Read from the host, so a reload or another
 * window shows the same.
 */
export const useOutboxStore = create<OutboxState>()((set, get) => ({
  queued: [],
  deciding: null,
  decisionError: null,
  async load() {
    const r = await settle(() => bridge().posts.queued());
    if (r.ok) set({ queued: r.value.posts });
  },
  async decide(entryId, decision) {
    if (get().deciding) return;
    set({ deciding: entryId, decisionError: null });
    const r = await settle(() => bridge().posts.decideQueued({ entry_id: entryId, decision }));
    set({
      deciding: null,
      decisionError: !r.ok
        ? describeError(r.error)
        : r.value.ok
          ? null
          : 'That post is no longer waiting for a decision; the list is up to date now.',
    });
    await get().load();
  },
  listen() {
    const off = bridge().posts.onDidChangeQueued((e) => set({ queued: e.posts }));
    void get().load();
    return off;
  },
}));
