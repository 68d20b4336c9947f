import type { BulkUpdate } from '../../../src-shared/api/bulk';
import { canDo, whyNot } from '../../../src-shared/api/delivery-transitions';
import { PLATFORM_RULES } from '../../../src-shared/platform-rules';
import type { CreatePostRequest, Delivery } from '../../../src-shared/api/posts';
import { recreateRequest as recreateFrom } from '../post-state/recreate';
import { failedOf, withRetryHistory } from '../post-state/retry';
import type { ChangeOutcome, ManyChange, RetryOutcome } from '../../../src-shared/ipc/post-groups';
import { ApiError } from '../api/errors';
import type { ChangePlan } from '../outbox/change-plans';
import {
  applyEach,
  ChangeUnanswered,
  planShift,
  planSpread,
  scheduledTimeOf,
  updateInBatches,
  UNKNOWN_WORDS,
  type Plan,
  type UpdateOutcome,
} from '../post-changes/bulk-update';
import { NoQueueError } from '../queue/place';
import { BridgeFault, forPeople, toBridgeError } from './bridge-fault';
import type { BridgeEvents } from './events';
import type { Handlers } from './handler-types';
import type { BridgeApi, BridgeCore } from './ports';
import { changeOnePost, UNANSWERED_CODE } from './post-change';
import type { ThumbnailPort } from './host-ports';

/**
 * The outcomes of a recorded send of absolute updates, one per update in order: an entry the service never
 * answered is `unknown` (it may have been applied), never a refusal.
 */
async function recordedOutcomes(
  updates: readonly BulkUpdate[],
  send: (u: readonly BulkUpdate[]) => Promise<{ plan: ChangePlan; requests: number }>,
  count: (n: number) => void,
): Promise<UpdateOutcome[]> {
  const { plan, requests } = await send(updates);
  count(requests);
  return plan.items.map((item) =>
    item.state === 'done'
      ? { post_id: item.postId, ok: true, error: null, code: null, deliveries: [] }
      : item.state === 'failed'
        ? { post_id: item.postId, ok: false, error: item.error, code: item.code, deliveries: [] }
        : {
            post_id: item.postId,
            ok: false,
            error: UNKNOWN_WORDS,
            code: 'UNKNOWN',
            deliveries: [],
            unknown: true,
          },
  );
}

/** A change the service never answered, as `applyEach` counts it: unknown, never a refusal. */
async function unanswered<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof BridgeFault && err.code === UNANSWERED_CODE) throw new ChangeUnanswered();
    throw err;
  }
}

/** Why one post was not changed, for a person: no field paths, no status codes, no commands. */
export function outcomeWords(o: Pick<UpdateOutcome, 'error' | 'code'>): string {
  const raw = o.error ?? '';
  if (o.code === 'UNKNOWN') return UNKNOWN_WORDS;
  if (o.code === '404' || o.code === 'NOT_FOUND' || /\bnot found\b/i.test(raw))
    return 'The service no longer has this post.';
  if (/no scheduled delivery/i.test(raw)) return 'It is a draft: schedule it first, then move it.';
  if (/must be in the future/i.test(raw)) return 'The new time would be in the past.';
  if (/no draft or scheduled delivery left/i.test(raw))
    return 'Nothing left to change: it was already published, or it failed.';
  if (o.code === '409') return 'It can no longer be deleted: it was published or is being published.';
  const words = forPeople(raw.replace(/^[a-z_]+(?:\[\d+\])?(?:\.[a-z_0-9]+)*:\s*/i, ''));
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'The service did not apply this change.';
}

const toOutcome = (o: UpdateOutcome, update?: BulkUpdate): ChangeOutcome => ({
  post_id: o.post_id,
  ok: o.ok,
  ...(o.unknown ? { unknown: true } : {}),
  error: o.ok ? null : outcomeWords(o),
  ...(update ? { update } : {}),
});

/** A platform as people name it, for the words of a refusal. */
const PLATFORM_LABELS: Readonly<Record<string, string>> = {
  x: 'X',
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
};
const platformLabel = (p: string): string => PLATFORM_LABELS[p] ?? p;

/** What a new post needs to be this one again, or a refusal in words for a person when the post is not known here. */
export function recreateRequest(
  deliveries: readonly Delivery[],
): Omit<CreatePostRequest, 'action' | 'scheduled_at'> {
  const req = recreateFrom(deliveries);
  if (!req) throw new BridgeFault('not_found', 'That post is no longer listed here; refresh the list.');
  return req;
}

/** The `postGroups` channels: posts grouped from the local index, and changes to many posts at once. */
// eslint-disable-next-line max-lines-per-function -- the postGroups channels share the index, the outbox and the plan sender; each channel is a short method
export function createPostGroupHandlers(
  core: BridgeCore,
  events: BridgeEvents,
  api: () => Promise<BridgeApi>,
  thumbnails: ThumbnailPort,
): Handlers['postGroups'] {
  /** Sends a plan through the bulk update; outcomes in the order of `order` (skipped ones included). */
  async function sendPlan(client: BridgeApi, plan: Plan) {
    let requests = 0;
    const counted: Pick<BridgeApi, 'bulkUpdate'> = {
      bulkUpdate: (body, o) => {
        requests += 1;
        return client.bulkUpdate(body, o);
      },
    };
    // Every plan sent here carries absolute results, except added targets: only those are never sent again.
    const absolute = plan.updates.every((u) => u.add_targets === undefined);
    const sent =
      absolute && plan.updates.length > 0
        ? await recordedOutcomes(
            plan.updates,
            (u) => core.posts.changeMany(u),
            (n) => (requests += n),
          )
        : await updateInBatches(counted, plan.updates, undefined, absolute ? { resendLost: 3 } : {});
    const outcomes = [
      ...sent.map((o, i) => toOutcome(o, plan.updates[i])),
      ...plan.skipped.map((o) => toOutcome(o)),
    ];
    return { outcomes, requests };
  }

  return {
    list: async (query) => {
      await api(); // not connected: say so rather than answer from the index
      const ix = core.index;
      const page = await ix.groups(query);
      const f = ix.freshness();
      // A delivery a retry made carries the failure it replaced: its history, kept in the outbox.
      const retried = core.posts.retried();
      const withHistory = (d: Delivery): Delivery => withRetryHistory(d, retried);
      return {
        groups: page.groups.map((g) => ({ post_id: g.post_id, deliveries: g.deliveries.map(withHistory) })),
        offset: page.offset,
        total: page.total,
        ...(f
          ? {
              freshness: {
                refreshed_at: f.refreshedAt === null ? null : new Date(f.refreshedAt).toISOString(),
                refreshing: f.refreshing,
                error: f.error ? toBridgeError(f.error) : null,
              },
            }
          : {}),
      };
    },
    changeMany: async ({ post_ids, change }) => {
      const client = await api();
      const ids = [...new Set(post_ids)];
      const known = core.index.deliveriesOf(ids);
      return applyChange(client, ids, known, change);
    },
    retry: async ({ updates }) => sendPlan(await api(), { updates: [...updates], skipped: [] }),
    thumbnail: async ({ post_id }) => {
      const client = await api();
      const first = core.index.deliveriesOf([post_id]).get(post_id)?.[0];
      const media = first?.media ?? [];
      const item = media[0];
      if (!item) return { data_url: null, kind: 'none' as const, count: 0 };
      const type = String((item as { mime_type?: unknown; media_type?: unknown }).mime_type ?? '');
      const video = type.startsWith('video/') || /\.mp4(?:$|\?)/i.test(item.url);
      if (video) return { data_url: null, kind: 'video' as const, count: media.length };
      // The URL comes from the index (what the service said), never from the page.
      return {
        data_url: await thumbnails.of(item.url, client.baseUrl),
        kind: 'image' as const,
        count: media.length,
      };
    },
    duplicate: async ({ post_id }) => {
      const posts = core.posts;
      await api();
      const deliveries = core.index.deliveriesOf([post_id]).get(post_id) ?? [];
      const res = await posts.create({ ...recreateRequest(deliveries), action: 'draft' });
      return { post_id: res.post.id };
    },
    retryDeliveries: async ({ post_id, delivery_ids, when }) => {
      const posts = core.posts;
      await api();
      const deliveries = core.index.deliveriesOf([post_id]).get(post_id) ?? [];
      const chosen = delivery_ids
        ? delivery_ids.map((id) => deliveries.find((d) => d.id === id))
        : failedOf(deliveries);
      if (chosen.length === 0)
        throw new BridgeFault('invalid_input', 'Nothing in this post failed: there is nothing to retry.');
      const results: RetryOutcome[] = [];
      for (const [i, d] of chosen.entries()) {
        const delivery_id = d?.id ?? delivery_ids?.[i] ?? '';
        if (!d) {
          results.push({
            delivery_id,
            state: 'failed',
            post_id: null,
            error: 'That delivery is no longer listed here.',
          });
          continue;
        }
        try {
          const at = when.kind === 'at' ? when.at : when.kind === 'queue' ? await queueSlotOf(d) : undefined;
          const r = await posts.retry(d, { scheduled_at: at }, platformLabel(d.platform));
          results.push({ delivery_id, state: r.state, post_id: r.post_id, error: null });
        } catch (err) {
          results.push({ delivery_id, state: 'failed', post_id: null, error: toBridgeError(err).message });
        }
      }
      return { results };
    },
    publishNow: async ({ post_id }) => {
      const posts = core.posts;
      await api(); // not connected: say so before anything is sent
      const deliveries = core.index.deliveriesOf([post_id]).get(post_id) ?? [];
      const open = deliveries.filter((d) => canDo(d.status, 'publishNow'));
      if (open.length === 0)
        throw new BridgeFault(
          'invalid_input',
          whyNotFor(deliveries, 'publishNow') ?? 'Only a draft or a scheduled post can be published now.',
        );
      // Through the outbox: a lost answer is never sent twice. If it throws, nothing was removed.
      const res = await posts.create(recreateRequest(open));
      const not_removed: string[] = [];
      let removed = 0;
      for (const d of open) {
        try {
          await changeOnePost(posts, { op: 'delete', id: d.id });
          removed += 1;
        } catch (err) {
          if (err instanceof ApiError && err.status === 404) removed += 1;
          else not_removed.push(d.id);
        }
      }
      return { post_id: res.post.id, removed, not_removed };
    },
  };

  /** The next free slot of the delivery's account, for a retry into the queue. */
  async function queueSlotOf(d: Delivery): Promise<string> {
    const queue = core.queue;
    try {
      const [placement] = await queue.plan([
        { targets: [{ platform: d.platform, social_account_id: d.social_account_id }] },
      ]);
      const at = placement?.[0]?.at;
      if (!at) throw new BridgeFault('invalid_input', 'The queue has no free slot for this account.');
      return at.toISOString();
    } catch (err) {
      if (err instanceof NoQueueError)
        throw new BridgeFault(
          'invalid_input',
          'This account has no queue slots yet: set its posting times on the Queue screen first.',
        );
      throw err;
    }
  }

  /**
   * Each post at the next free slot of its first account's queue, in order of current time. A post's still-scheduled
   * deliveries share one time (the service moves them together), so one account's slots decide it.
   */
  async function planQueue(
    ids: readonly string[],
    known: ReadonlyMap<string, readonly Delivery[]>,
  ): Promise<Plan> {
    const queue = core.queue;
    const posts = ids
      .map((post_id) => {
        const ds = known.get(post_id) ?? [];
        const first = ds.find((d) => canDo(d.status, 'edit')) ?? ds[0];
        return { post_id, at: Date.parse(scheduledTimeOf(ds) ?? '') || Infinity, first };
      })
      .sort((a, b) => a.at - b.at);
    const placeable = posts.filter((p) => p.first);
    let placements: Awaited<ReturnType<typeof queue.plan>>;
    try {
      placements = await queue.plan(
        placeable.map((p) => ({
          targets: [{ platform: p.first!.platform, social_account_id: p.first!.social_account_id }],
        })),
      );
    } catch (err) {
      if (err instanceof NoQueueError)
        throw new BridgeFault(
          'invalid_input',
          'An account of these posts has no queue slots yet: set them in Queue.',
        );
      throw err;
    }
    return {
      updates: placeable.flatMap((p, i) => {
        const at = placements[i]?.[0]?.at;
        return at ? [{ post_id: p.post_id, scheduled_at: at.toISOString() }] : [];
      }),
      skipped: posts
        .filter((p) => !p.first)
        .map((p) => ({
          post_id: p.post_id,
          ok: false,
          error: 'This post is no longer listed here.',
          code: null,
          deliveries: [],
        })),
    };
  }

  async function applyChange(
    client: BridgeApi,
    ids: readonly string[],
    known: ReadonlyMap<string, readonly Delivery[]>,
    change: ManyChange,
  ) {
    const timed = ids.map((post_id) => ({
      post_id,
      scheduled_at: scheduledTimeOf(known.get(post_id) ?? []),
    }));
    switch (change.kind) {
      case 'shift':
        return sendPlan(client, planShift(timed, change.by_ms));
      case 'spread':
        return sendPlan(client, planSpread(timed, change.from, change.to));
      case 'queue':
        return sendPlan(client, await planQueue(ids, known));
      case 'addTargets':
        return sendPlan(client, {
          updates: ids.map((post_id) => ({ post_id, add_targets: change.targets })),
          skipped: [],
        });
      case 'cancel': {
        // Only posts the table lets cancel are sent; the others say why, as the service would have refused them.
        const refused = ids.flatMap((post_id) => {
          const ds = known.get(post_id);
          const why = ds && !ds.some((d) => canDo(d.status, 'cancel')) ? whyNotFor(ds, 'cancel') : null;
          return why ? [{ post_id, ok: false as const, error: why }] : [];
        });
        const skip = new Set(refused.map((r) => r.post_id));
        const out = await applyEach(
          ids.filter((id) => !skip.has(id)),
          async (id) =>
            (
              await unanswered(() =>
                changeOnePost(core.posts, { op: 'update', body: { id, status: 'draft' } }),
              )
            )?.social_posts ?? [],
        );
        return { outcomes: [...out.map((o) => toOutcome(o)), ...refused], requests: 0 };
      }
      case 'delete': {
        // The contract has no bulk delete: each deletable delivery of each post on its own, one outcome per post.
        const outcomes: ChangeOutcome[] = [];
        for (const post_id of ids) {
          const ds = known.get(post_id) ?? [];
          const deletable = ds.filter((d) => canDo(d.status, 'delete'));
          if (deletable.length === 0) {
            outcomes.push({
              post_id,
              ok: false,
              error: whyNotFor(ds, 'delete') ?? 'Nothing here can be deleted.',
            });
            continue;
          }
          const each = await applyEach(
            deletable.map((d) => d.id),
            async (id) => {
              await unanswered(() => changeOnePost(core.posts, { op: 'delete', id }));
              return [];
            },
          );
          const bad = each.find((o) => !o.ok);
          outcomes.push(bad ? { ...toOutcome(bad), post_id } : { post_id, ok: true, error: null });
        }
        return { outcomes, requests: 0 };
      }
    }
  }
}

/** Why none of a post's deliveries allows the action, in the words of the transition table (its first delivery's). */
function whyNotFor(
  deliveries: readonly Pick<Delivery, 'status' | 'platform'>[],
  action: Parameters<typeof canDo>[1],
): string | null {
  const first = deliveries[0];
  return first ? whyNot(first.status, action, PLATFORM_RULES[first.platform].name) : null;
}
