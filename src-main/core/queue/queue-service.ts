import type { Target } from '../../../src-shared/api/common';
import type { CreatePostRequest, Delivery } from '../../../src-shared/api/posts';
import type { AccountQueue, QueueSchedule } from '../../../src-shared/queue';
import type {
  AccountUpcoming,
  QueueAddRequest,
  QueueAddResult,
  QueueMoved,
  SlotPost,
} from '../../../src-shared/ipc/queue';
import { MAX_PAGE, type DeliveryIndex } from '../deliveries/delivery-index';
import type { Store } from '../store/store';
import { createLimit } from '../common/limit';
import { placeInQueue, type Placement, type Taken } from './place';
import { openQueueStore } from './queue-store';
import { upcomingSlots } from './slots';

/** Statuses that hold a slot: a delivery the service will publish at its `scheduled_at`. */
const HOLDING = ['scheduled'] as const;

export interface QueueServiceOptions {
  readonly store: Store;
  /** Which service: "sandbox" offline, the base URL otherwise (as the outbox and the delivery index say it). */
  readonly scope: () => string;
  /** The local delivery index, and how to bring it up to date with the service (before placing posts). */
  readonly index: DeliveryIndex;
  /** `force`: ask the service even if the index was refreshed moments ago (before placing or moving posts). */
  readonly refresh: (force: boolean) => Promise<void>;
  /**
   * Creates one scheduled post through the outbox (written to the store before it is sent); answers its post id,
   * or null when the outbox holds it unconfirmed and sends it later. A refusal throws.
   */
  readonly create: (req: Readonly<CreatePostRequest>) => Promise<string | null>;
  /** Moves a post (every still-scheduled delivery of it: the service's rule) to another time. */
  readonly reschedule: (postId: string, at: string) => Promise<void>;
  /**
   * Posts saved in the outbox that the service has not confirmed yet: the index cannot know them, but their slots
   * are as good as taken.
   */
  readonly pending?: () => readonly {
    readonly targets: readonly Target[];
    readonly scheduled_at: string | null;
  }[];
  readonly now?: () => Date;
}

export interface QueueService {
  schedules(): AccountQueue[];
  set(accountId: string, schedule: Readonly<QueueSchedule>): AccountQueue | null;
  /** Per account, the next `count` slots and what holds each; refreshes the index first. */
  upcoming(q?: {
    accountIds?: readonly string[] | undefined;
    count?: number | undefined;
    /** Ask the service first even if the index was refreshed moments ago. */
    force?: boolean;
  }): Promise<AccountUpcoming[]>;
  /** Where posts would go now, without creating anything (the taken slots read from the refreshed index). */
  plan(posts: readonly { readonly targets: readonly Target[] }[]): Promise<Placement[][]>;
  add(post: Readonly<QueueAddRequest>): Promise<QueueAddResult>;
  moveTo(postId: string, to: string): Promise<QueueMoved>;
  moveToTop(postId: string, accountId: string): Promise<QueueMoved>;
}

/** Every scheduled delivery from `from` on, in time order (the index pages at most 10,000 at once). */
function scheduledDeliveriesFrom(o: Pick<QueueServiceOptions, 'index' | 'scope'>, from: Date): Delivery[] {
  const out: Delivery[] = [];
  for (let offset = 0; ; offset += MAX_PAGE) {
    const page = o.index.queryDeliveries({
      scope: o.scope(),
      status: [...HOLDING],
      from: from.toISOString(),
      order: 'when',
      offset,
      limit: MAX_PAGE,
    });
    out.push(...page.items);
    if (page.items.length < MAX_PAGE) return out;
  }
}

export function createQueueService(o: QueueServiceOptions): QueueService {
  const queues = openQueueStore(o.store, o.now);
  const now = o.now ?? (() => new Date());

  const scheduledFrom = (from: Date): Delivery[] => scheduledDeliveriesFrom(o, from);
  const takenFrom = (deliveries: readonly Delivery[]): Taken => {
    const taken: Taken = new Map();
    const hold = (account: string, at: string) => {
      const set = taken.get(account) ?? new Set<number>();
      set.add(Date.parse(at));
      taken.set(account, set);
    };
    for (const d of deliveries) if (d.scheduled_at) hold(d.social_account_id, d.scheduled_at);
    for (const p of o.pending?.() ?? [])
      if (p.scheduled_at) for (const t of p.targets) hold(t.social_account_id, p.scheduled_at);
    return taken;
  };
  // One placement or move at a time: two adds at once would both see the same slot free.
  const serial = createLimit(1);
  const schedulesById = () => new Map(queues.all(o.scope()).map((q) => [q.account_id, q]));

  async function upcoming(
    q: { accountIds?: readonly string[] | undefined; count?: number | undefined; force?: boolean } = {},
  ) {
    await o.refresh(q.force ?? false);
    const after = now();
    const byAccount = new Map<string, Map<number, SlotPost[]>>();
    for (const d of scheduledFrom(after)) {
      if (!d.scheduled_at) continue;
      const at = Date.parse(d.scheduled_at);
      const slots = byAccount.get(d.social_account_id) ?? new Map<number, SlotPost[]>();
      slots.set(at, [
        ...(slots.get(at) ?? []),
        { post_id: d.post_id, delivery_id: d.id, caption: d.caption, platform: d.platform },
      ]);
      byAccount.set(d.social_account_id, slots);
    }
    const wanted = q.accountIds ? new Set(q.accountIds) : null;
    return queues
      .all(o.scope())
      .filter((s) => !wanted || wanted.has(s.account_id))
      .map((s) => ({
        account_id: s.account_id,
        timezone: s.timezone,
        slots: upcomingSlots(s, after, q.count ?? 10).map((u) => ({
          ...u.slot,
          at: u.at.toISOString(),
          date: u.date,
          posts: byAccount.get(s.account_id)?.get(u.at.getTime()) ?? [],
        })),
      }));
  }

  async function plan(posts: readonly { readonly targets: readonly Target[] }[]) {
    await o.refresh(true);
    const after = now();
    return placeInQueue(posts, { schedules: schedulesById(), taken: takenFrom(scheduledFrom(after)), after });
  }

  const whenOf = (postId: string): string | null =>
    o.index.queryDeliveries({ scope: o.scope(), postId, status: [...HOLDING], limit: 1 }).items[0]
      ?.scheduled_at ?? null;

  return {
    schedules: () => queues.all(o.scope()),
    set: (accountId, schedule) => queues.set(o.scope(), accountId, schedule),
    upcoming,
    plan,
    add: (post) =>
      serial(async () => {
        const [placements = []] = await plan([post]);
        const out: QueueAddResult['posts'] = [];
        // One create per instant, earliest first; each goes through the outbox on its own.
        for (const p of placements) {
          const at = p.at.toISOString();
          const post_id = await o.create({
            caption: post.caption,
            ...(post.title !== undefined ? { title: post.title } : {}),
            ...(post.media?.length ? { media: post.media } : {}),
            targets: [...p.targets],
            scheduled_at: at,
          });
          out.push({ at, targets: [...p.targets], post_id });
        }
        return { posts: out };
      }),
    moveTo: (postId, to) =>
      serial(async () => {
        const from = whenOf(postId);
        await o.reschedule(postId, to);
        return { moved: [{ post_id: postId, from, to }] };
      }),
    moveToTop: (postId, accountId) =>
      serial(async () => {
        const [account] = await upcoming({ accountIds: [accountId], count: 200, force: true });
        if (!account || account.slots.length === 0) throw new Error('that account has no queue slots');
        const slots = account.slots;
        const from = whenOf(postId);
        const own = slots.findIndex((s) => s.posts.some((p) => p.post_id === postId));
        const others = (i: number): string[] => [
          ...new Set((slots[i]?.posts ?? []).map((p) => p.post_id).filter((id) => id !== postId)),
        ];
        // The post takes the first slot; the posts in the slots before its old one each move one slot later,
        // until a slot that was free (or the one it left) takes the last of them.
        const moves: { post_id: string; from: string | null; to: string }[] = [];
        const first = slots[0] as (typeof slots)[number];
        if (own !== 0) moves.push({ post_id: postId, from, to: first.at });
        let carry = own === 0 ? [] : others(0);
        for (let i = 1; carry.length > 0 && i < slots.length; i += 1) {
          const slot = slots[i] as (typeof slots)[number];
          for (const id of carry) moves.push({ post_id: id, from: slots[i - 1]?.at ?? null, to: slot.at });
          carry = i === own ? [] : others(i);
        }
        for (const m of moves) await o.reschedule(m.post_id, m.to);
        return { moved: moves };
      }),
  };
}
