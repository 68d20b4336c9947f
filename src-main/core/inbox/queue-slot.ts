import type { InboxDraft } from '../../../src-shared/ipc/inbox';
import type { QueueService } from '../queue/queue-service';

/** A draft is one post with one time for all its accounts: their next free slots must be the same instant. */
export class SlotsDifferError extends Error {
  constructor() {
    super(
      "This draft's accounts have different next free slots in the queue; approve it for a time instead.",
    );
    this.name = 'SlotsDifferError';
  }
}

/** The posting queue's next free slot for this draft (throws the queue's `NoQueueError` for an account without slots). */
export async function queueSlotFor(
  queue: Pick<QueueService, 'plan'>,
  draft: Pick<InboxDraft, 'targets'>,
): Promise<string> {
  const targets = draft.targets.map((t) => ({
    social_account_id: t.social_account_id,
    platform: t.platform,
  }));
  const [placements = []] = await queue.plan([{ targets }]);
  const times = [...new Set(placements.map((p) => p.at.toISOString()))];
  if (times.length !== 1) throw new SlotsDifferError();
  return times[0] as string;
}
