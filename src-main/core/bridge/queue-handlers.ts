import type { CreatePostRequest } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import type { DeliveryFeed } from '../deliveries/delivery-feed';
import { NoQueueError } from '../queue/place';
import { createQueueService, type QueueService } from '../queue/queue-service';
import type { Store } from '../store/store';
import { BridgeFault, notConnected } from './bridge-fault';
import type { Handlers } from './handler-types';
import { QUEUED_CODE } from './post-outbox';
import type { PostCreatePort } from './ports';
import { changeOnePost } from './post-change';

export interface QueuePortOptions {
  readonly store: Store;
  readonly feed: DeliveryFeed;
  readonly client: () => Pick<ApiClient, 'updatePost'> | null;
  readonly scope: () => string;
  readonly posts: PostCreatePort;
  readonly now?: () => Date;
}

/** The queue behind the bridge: creates through the post outbox, reads taken slots from the delivery index. */
export function createQueuePort(o: QueuePortOptions): QueueService {
  return createQueueService({
    store: o.store,
    scope: o.scope,
    index: o.feed.index,
    refresh: (force) => {
      if (!o.client()) throw notConnected();
      return o.feed.refresh({ force });
    },
    create: async (req: Readonly<CreatePostRequest>) => {
      try {
        return (await o.posts.create(req)).post.id;
      } catch (e) {
        // Safe in the outbox and sent on its own: the next post of the queue is placed after it anyway.
        if (e instanceof BridgeFault && e.code === QUEUED_CODE) return null;
        throw e;
      }
    },
    // A move as every other change to a post: recorded as its result, a lost answer read back, never twice.
    reschedule: async (id, at) => {
      if (!o.client()) throw notConnected();
      await changeOnePost(o.posts, { op: 'update', body: { id, scheduled_at: at } });
    },
    // A create the outbox holds unconfirmed (queued, or waiting for a decision) keeps its slot.
    pending: () => (o.client() ? o.posts.queued() : []),
    ...(o.now ? { now: o.now } : {}),
  });
}

const forPeople = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NoQueueError) {
      throw new BridgeFault(
        'invalid_input',
        e.accountIds.length === 1
          ? 'One of the accounts has no queue slots yet. Set its posting times on the Queue screen first.'
          : `${e.accountIds.length} of the accounts have no queue slots yet. Set their posting times on the Queue screen first.`,
      );
    }
    throw e;
  }
};

/** `queue:*`: the handlers; what they change reaches the pages through the index (src-main/core/post-state). */
export function createQueueHandlers(queue: () => QueueService): Handlers['queue'] {
  return {
    schedules: async () => ({ queues: queue().schedules() }),
    set: async ({ account_id, schedule }) => ({ queue: queue().set(account_id, schedule) }),
    upcoming: async ({ account_ids, count }) => ({
      accounts: await queue().upcoming({ accountIds: account_ids, count }),
    }),
    plan: ({ targets }) =>
      forPeople(async () => {
        const [placements = []] = await queue().plan([{ targets }]);
        return { posts: placements.map((p) => ({ at: p.at.toISOString(), targets: [...p.targets] })) };
      }),
    add: (post) =>
      forPeople(async () => {
        return queue().add(post);
      }),
    move: (req) =>
      forPeople(async () => {
        let res;
        try {
          res =
            'top' in req
              ? await queue().moveToTop(req.post_id, req.account_id)
              : await queue().moveTo(req.post_id, req.to);
        } catch (e) {
          if (e instanceof Error && e.message === 'that account has no queue slots')
            throw new BridgeFault('invalid_input', 'That account has no queue slots yet.');
          throw e;
        }
        return res;
      }),
  };
}
