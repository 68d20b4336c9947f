import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { DeliveryLesson } from './lessons';

/** The calls whose answers teach something about deliveries; any client shape holding some of them. */
type Taught = Partial<
  Pick<ApiClient, 'listPosts' | 'createPost' | 'updatePost' | 'deletePost' | 'bulkCreate' | 'bulkUpdate'>
>;

/**
 * The one place the app learns about deliveries: a client that behaves exactly as `client` and, after
 * each answer about posts, calls `onDidLearnDeliveries`. Every module that talks to the service through
 * it (outbox, bulk import, bridge handlers, the failure watcher) feeds the index without knowing.
 * A listener's failure never reaches the caller: the index is a cache, the call's answer is the truth.
 */
export function withDeliveryLearning<C extends Taught>(
  client: C,
  onDidLearnDeliveries: (lesson: DeliveryLesson) => void,
  log: Logger = silentLogger,
): C {
  const tell = (lesson: DeliveryLesson): void => {
    try {
      onDidLearnDeliveries(lesson);
    } catch (error) {
      // A broken index must not fail a post the service accepted.
      log.warn('the local delivery index did not take an answer', {
        kind: lesson.kind,
        error: errorText(error),
      });
    }
  };
  // Everything else (baseUrl, dispatcher, other operations) is read through from the real client.
  const wrapped = Object.create(client) as C;
  const { listPosts, createPost, updatePost, deletePost, bulkCreate, bulkUpdate } = client;
  const own: Taught = {
    ...(listPosts && {
      listPosts: async (query, o) => {
        const startedAt = Date.now();
        const res = await listPosts(query, o);
        tell({ kind: 'records', deliveries: res.posts, listed: { query: query ?? {}, startedAt } });
        return res;
      },
    }),
    ...(createPost && {
      createPost: async (body, o) => {
        const res = await createPost(body, o);
        tell({ kind: 'records', deliveries: res.social_posts });
        return res;
      },
    }),
    ...(updatePost && {
      updatePost: async (body, o) => {
        const res = await updatePost(body, o);
        tell({ kind: 'records', deliveries: res.social_posts });
        return res;
      },
    }),
    ...(deletePost && {
      deletePost: async (idOrBody, o) => {
        const id = typeof idOrBody === 'string' ? idOrBody : idOrBody.id;
        try {
          const res = await deletePost(idOrBody, o);
          if (res.success) tell({ kind: 'removed', id });
          return res;
        } catch (err) {
          // Gone already (deleted elsewhere): drop it here too.
          if (err instanceof ApiError && err.status === 404) tell({ kind: 'removed', id });
          throw err;
        }
      },
    }),
    ...(bulkCreate && {
      bulkCreate: async (body, o) => {
        const res = await bulkCreate(body, o);
        tell({ kind: 'bulk', items: body.items, results: res.items });
        return res;
      },
    }),
    ...(bulkUpdate && {
      bulkUpdate: async (body, o) => {
        const res = await bulkUpdate(body, o);
        tell({ kind: 'records', deliveries: res.results.flatMap((r) => r.social_posts ?? []) });
        return res;
      },
    }),
  };
  return Object.assign(wrapped, own);
}
