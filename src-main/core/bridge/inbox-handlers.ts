import type { RunRecord } from '../../../src-shared/ipc/runs';
import {
  createInbox,
  NotInInboxError,
  type InboxDeps,
  type InboxResult,
  type KnownRun,
} from '../inbox/inbox';
import { fetchPreview } from '../inbox/preview';
import { BridgeFault, toBridgeError } from './bridge-fault';
import type { InboxDraft } from '../../../src-shared/ipc/inbox';
import { NoQueueError } from '../queue/place';
import { queueSlotFor, SlotsDifferError } from '../inbox/queue-slot';
import type { QueueService } from '../queue/queue-service';
import type { BridgeEvents } from './events';
import type { Handlers } from './handler-types';
import type { BridgeApi, ExecutorPort, PostCreatePort } from './ports';
import { changeOnePost } from './post-change';

export interface InboxHandlerDeps {
  readonly api: () => Promise<BridgeApi>;
  /** The posting queue (approve into it). */
  readonly queue: QueueService;
  readonly executor?: ExecutorPort | undefined;
  readonly events: BridgeEvents;
  readonly now: () => Date;
  readonly fetch?: typeof fetch;
  /** The outbox, through whose change record approvals, edits and rejections go. */
  readonly posts: PostCreatePort;
}

export const knownRun = (r: RunRecord): KnownRun => ({
  local_id: r.id,
  automation_id: r.automation_id,
  automation_name: r.automation_name,
  state: r.state,
  scheduled_for: r.scheduled_for,
  finished_at: r.finished_at,
});

const outcome = (r: InboxResult) => ({
  post_id: r.post_id,
  ok: r.ok,
  ...(r.scheduled_at !== undefined ? { scheduled_at: r.scheduled_at } : {}),
  error: r.ok
    ? null
    : r.error instanceof NotInInboxError
      ? toBridgeError(new BridgeFault('not_found', r.error.message))
      : toBridgeError(r.error),
});

/** What the local executor knows of these runs (by the service's run id), for naming a draft's automation. */
export function executorRunLookup(executor: ExecutorPort | undefined): InboxDeps['runs'] {
  return async (ids) => {
    if (!executor) return new Map();
    // The journal finds a run by the service's id as well as its own.
    const found = await Promise.all(
      ids.map(async (id) => [id, (await executor.getRun(id).catch(() => null))?.run] as const),
    );
    return new Map(found.flatMap(([id, r]) => (r ? [[id, knownRun(r)] as const] : [])));
  };
}

/** The queue's next free slot for a draft, its refusals in words for a person. */
function queueSlotOf(queue: QueueService) {
  return async (draft: Omit<InboxDraft, 'run'>): Promise<string> => {
    try {
      return await queueSlotFor(queue, draft);
    } catch (e) {
      if (e instanceof NoQueueError) {
        throw new BridgeFault(
          'invalid_input',
          'An account of this draft has no queue slots yet. Set its posting times on the Queue screen first.',
        );
      }
      if (e instanceof SlotsDifferError) throw new BridgeFault('invalid_input', e.message);
      throw e;
    }
  };
}

/** `inbox:*`: the agent inbox over the bridge (src-main/core/inbox). */
export function createInboxHandlers(deps: InboxHandlerDeps): Handlers['inbox'] {
  const inbox = createInbox({
    client: deps.api,
    now: deps.now,
    runs: executorRunLookup(deps.executor),
    // Each approval, edit and rejection as every other change to a post: recorded, a lost answer read back.
    change: (c) => changeOnePost(deps.posts, c),
  });
  const changed = async () => {
    const { total } = await inbox.list().catch(() => ({ total: null }));
    if (total !== null) deps.events.emit('inbox:didChange', { total });
  };
  return {
    list: async ({ run_id }) => {
      const snapshot = await inbox.list({ run_id });
      return { ...snapshot, groups: [...snapshot.groups] };
    },
    approve: async ({ post_ids, at, queue }) => {
      if (queue && at) throw new BridgeFault('invalid_input', 'Choose a time or the queue, not both.');
      const results = queue
        ? await inbox.approveEach(post_ids, queueSlotOf(deps.queue))
        : await inbox.approve(post_ids, at);
      await changed();
      return { results: results.map(outcome) };
    },
    reject: async ({ post_ids }) => {
      const results = await inbox.reject(post_ids);
      await changed();
      return { results: results.map(outcome) };
    },
    edit: async ({ post_id, caption }) => {
      return outcome(await inbox.edit(post_id, caption));
    },
    preview: async ({ post_id, index }) => {
      const url = inbox.mediaUrl(post_id, index);
      if (!url) return { data_url: null };
      const api = await deps.api();
      return { data_url: await fetchPreview(url, api.baseUrl, deps.fetch).catch(() => null) };
    },
  };
}
