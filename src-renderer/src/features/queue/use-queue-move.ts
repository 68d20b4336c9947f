import { useState } from 'react';
import type { BridgeError } from '../../../../src-shared/ipc';
import type { AccountUpcoming } from '../../../../src-shared/ipc/queue';
import { describeError } from '../../app/describe-error';
import { formatDateTime } from '../../app/format';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';
import type { CellPost } from './week-grid';

/**
 * The account whose queue "the top" means for a post: of its accounts, the one whose next slot comes first (the
 * post takes that slot, and that account's posts before its old place shift one slot later).
 */
export function topAccountOf(
  post: Pick<CellPost, 'account_ids'>,
  upcoming: readonly AccountUpcoming[],
): string | null {
  const firsts = upcoming
    .filter((a) => post.account_ids.includes(a.account_id) && a.slots.length > 0)
    .map((a) => ({ id: a.account_id, at: Date.parse(a.slots[0]?.at ?? '') }))
    .sort((a, b) => a.at - b.at);
  return firsts[0]?.id ?? post.account_ids[0] ?? null;
}

/** Free slots a post may move to, soonest first: of its accounts, not its own, held by none of its accounts' posts. */
export function freeSlotsFor(post: CellPost, upcoming: readonly AccountUpcoming[]): string[] {
  const held = new Set<string>();
  const offered = new Set<string>();
  for (const a of upcoming.filter((u) => post.account_ids.includes(u.account_id)))
    for (const s of a.slots)
      if (s.posts.some((p) => p.post_id !== post.post_id)) held.add(s.at);
      else if (s.at !== post.at) offered.add(s.at);
  return [...offered].filter((at) => !held.has(at)).sort((a, b) => Date.parse(a) - Date.parse(b));
}

/**
 * Moving a queued post: through the queue bridge, whose move is recorded like every change to a post (a lost
 * answer read back, never sent twice). Says what happened in a toast, or keeps the refusal to show.
 */
export function useQueueMove() {
  const move = useQueueStore((s) => s.move);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const run = async (req: Parameters<typeof move>[0], done: string): Promise<boolean> => {
    if (busy) return false;
    setBusy(true);
    setError(null);
    const r = await move(req);
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      toast('error', `The post was not moved: ${describeError(r.error)}`);
      return false;
    }
    toast('success', done);
    return true;
  };
  return {
    busy,
    error,
    moveTo: (post: CellPost, at: string) =>
      run({ post_id: post.post_id, to: at }, `Moved to ${formatDateTime(at)}.`),
    moveTop: (post: CellPost, upcoming: readonly AccountUpcoming[]) => {
      const account = topAccountOf(post, upcoming);
      return account
        ? run({ post_id: post.post_id, account_id: account, top: true }, 'Moved to the top of the queue.')
        : Promise.resolve(false);
    },
  };
}
