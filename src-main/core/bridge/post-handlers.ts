import { CALENDAR_STATUSES } from '../../../src-shared/api/delivery-transitions';
import type { ListFreshness } from '../../../src-shared/ipc/posts';
import { toBridgeError } from './bridge-fault';
import type { Handlers } from './handler-types';
import { changeOnePost } from './post-change';
import type { BridgeCore } from './ports';

/**
 * `posts`, `calendar` and `watch`: lists read from the local delivery index, creates and changes through the
 * outbox (a lost answer read back, never sent twice), failed and unconfirmed deliveries from the watcher.
 */
export function createPostHandlers(
  core: Pick<BridgeCore, 'connection' | 'index' | 'posts' | 'deliveries'>,
): Pick<Handlers, 'posts' | 'calendar' | 'watch'> {
  const api = () => core.connection.api();
  /** What the index says of how current its answer is, for the screen to show beside the list. */
  const freshness = (): { freshness: ListFreshness } => {
    const f = core.index.freshness();
    return {
      freshness: {
        refreshed_at: f.refreshedAt === null ? null : new Date(f.refreshedAt).toISOString(),
        refreshing: f.refreshing,
        error: f.error ? toBridgeError(f.error) : null,
      },
    };
  };
  return {
    posts: {
      list: async ({ offset, refresh, ...query }) => {
        await api(); // not connected: say so rather than answer from the index
        return { ...(await core.index.list({ ...query, offset, refresh })), ...freshness() };
      },
      // Through the outbox: in the store before it is sent, never sent twice.
      create: async (body) => core.posts.create(body),
      // Through the outbox's change record: a lost answer is read back, never reported as a refusal nor applied
      // twice. The index takes each answer and tells the pages what changed (src-main/core/post-state).
      update: async (body) => {
        await api();
        const res = await changeOnePost(core.posts, { op: 'update', body });
        return res ?? { post_id: body.id, social_posts: [] };
      },
      delete: async (body) => {
        await api();
        await changeOnePost(core.posts, { op: 'delete', id: body.id });
        return { success: true };
      },
      checkFailures: async () => {
        await api(); // not connected: say so rather than answer "no failures"
        return { failed: [...(await core.deliveries.checkNow())] };
      },
      queued: async () => ({ posts: [...core.posts.queued()] }),
      decideQueued: async ({ entry_id, decision }) => ({
        ok: await core.posts.decide(entry_id, decision),
      }),
    },
    calendar: {
      range: async ({ start, end, platform, statuses }) => {
        await api();
        const deliveries = await core.index.range({
          start,
          end,
          platform,
          statuses: statuses ?? CALENDAR_STATUSES,
        });
        return { deliveries: [...deliveries], ...freshness() };
      },
      // A drag is an update like any other: recorded as the time it sets, a lost answer read back.
      reschedule: async ({ id, scheduled_at }) => {
        await api();
        const res = await changeOnePost(core.posts, { op: 'update', body: { id, scheduled_at } });
        return res ?? { post_id: id, social_posts: [] };
      },
    },
    watch: {
      unconfirmed: async () => {
        const watch = core.deliveries;
        if ((await core.connection.status()).state === 'connected') await watch.checkNow().catch(() => []);
        return { deliveries: [...watch.unconfirmed()] };
      },
    },
  };
}
