import { LIMITS } from '../../../src-shared/api/limits';
import type { CreatePostRequest, Delivery } from '../../../src-shared/api/posts';
import type { CreatePostResult, QueuedPost } from '../../../src-shared/ipc/posts';
import type { ApiClient } from '../api/client';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import { retry } from '../common/retry';
import { createOutbox, type Outbox, type OutboxEntry } from '../outbox/outbox';
import { intentOf, openChangePlans } from '../outbox/change-plans';
import { changeOne } from '../post-changes/recorded-single';
import { sendRecorded } from '../post-changes/recorded-update';
import { removeRetried, retryDelivery, RetryFailedError, RetryRefusedError } from '../post-state/retry';
import type { Store } from '../store/store';
import { BridgeFault, notConnected, serviceWords } from './bridge-fault';
import type { PostCreatePort } from './ports';

export interface PostOutboxOptions {
  readonly store: Store;
  readonly client: () => ApiClient | null;
  /** Which service the entries belong to: "sandbox" offline, the base URL otherwise (as bulk and the executor). */
  readonly scope: (client: ApiClient) => string;
  /** How long a create keeps trying before it answers "queued" (the entry is sent later). */
  readonly settleMs?: number;
  /** How often queued entries are flushed in the background. */
  readonly flushEveryMs?: number;
  /** Called with the whole list when what the service has not confirmed changes (the queued-posts notice). */
  readonly onDidChangeQueued?: (posts: readonly QueuedPost[]) => void;
  /** A retry was confirmed: its new deliveries now carry the failure they replace. */
  readonly onDidRetry?: (entry: Readonly<OutboxEntry>) => void;
  /** Where failures of background work (flushes, replays, read-backs) are reported. */
  readonly log?: Logger;
}

const UNCONFIRMED: readonly OutboxEntry['state'][] = ['pending', 'sending', 'unconfirmed', 'needs_decision'];

/** An entry as the page sees it: what the post is and whether it waits for the service or for the person. */
function toQueuedPost(e: Readonly<OutboxEntry>): QueuedPost {
  const req = e.request;
  return {
    entry_id: e.id,
    state: e.state === 'needs_decision' ? 'needs_decision' : 'waiting',
    caption: req.caption,
    targets: req.targets.map((t) => ({ platform: t.platform, social_account_id: t.social_account_id })),
    action: req.action === 'draft' ? 'draft' : req.scheduled_at ? 'schedule' : 'publish',
    scheduled_at: req.scheduled_at ?? null,
    queued_at: e.createdAt,
  };
}

/** Thrown when the create is safe in the store but the service has not confirmed it yet. */
export const QUEUED_CODE = 'OUTBOX_QUEUED';

/**
 * Post creates through the core's outbox: written to the local store before a byte is sent; drafts and
 * schedules go as idempotent one-item bulk batches, publish-now is sent once and reconciled against the
 * posts list. A lost answer can neither lose the post nor create it twice.
 */
export function createPostOutboxPort(o: PostOutboxOptions): PostCreatePort & { close(): void } {
  const outboxes = new WeakMap<ApiClient, Outbox>();
  const log = o.log ?? silentLogger;
  const settleMs = o.settleMs ?? 15_000;
  // Exactly the entries not settled yet, the one being answered included: the notice says what is true now, and
  // every move of an entry (saved, sending, sent, refused) sends the list again, so a settled one leaves at once.
  const queuedIn = (ob: Outbox): QueuedPost[] => ob.list({ states: UNCONFIRMED }).reverse().map(toQueuedPost);
  const changed = (ob: Outbox): void => o.onDidChangeQueued?.(queuedIn(ob));
  const outboxFor = (client: ApiClient): Outbox => {
    let ob = outboxes.get(client);
    if (!ob) {
      const created = createOutbox(o.store, client, { scope: o.scope(client) });
      created.onDidChange((e) => {
        changed(created);
        // A retry confirmed later (it answered "queued"): the failed delivery it replaces goes now.
        if (e.state === 'sent' && e.retryOf) {
          o.onDidRetry?.(e);
          void removeRetried(client, e).catch((error: unknown) =>
            log.warn('removing a retried delivery failed', { error: errorText(error) }),
          );
        }
      });
      outboxes.set(client, created);
      ob = created;
    }
    return ob;
  };

  /** Flushes in the background: what is not sent stays queued for the next flush, and the log says why. */
  const flushLater = (ob: Outbox): void =>
    void ob
      .flush()
      .catch((error: unknown) => log.warn('flushing the outbox failed', { error: errorText(error) }));
  const flushAll = (): void => {
    const client = o.client();
    if (!client) return;
    const ob = outboxFor(client);
    if (ob.unfinishedCount() > 0) flushLater(ob);
  };
  const timer = setInterval(flushAll, o.flushEveryMs ?? 60_000);
  timer.unref?.();
  /** The current service's client; not connected: the page is told so. */
  const connected = (): ApiClient => {
    const client = o.client();
    if (!client) throw notConnected();
    return client;
  };

  return {
    async create(req: Readonly<CreatePostRequest>): Promise<CreatePostResult> {
      const client = connected();
      const ob = outboxFor(client);
      const { entryId } = ob.enqueuePost(req);
      return answerOf(await ob.settle(entryId, { timeoutMs: settleMs }), req, client, ob, log);
    },
    async retry(failed, when, platformName) {
      const client = connected();
      try {
        return await retryDelivery(
          { outbox: outboxFor(client), client, settleMs },
          failed,
          when,
          platformName,
        );
      } catch (err) {
        if (err instanceof RetryRefusedError) throw new BridgeFault('invalid_input', err.message);
        if (err instanceof RetryFailedError)
          throw new BridgeFault('api', serviceWords(err.message), undefined, {
            status: err.status,
            code: err.code,
          });
        throw err;
      }
    },
    retried() {
      const client = o.client();
      return client ? outboxFor(client).retried() : new Map();
    },
    queued() {
      const client = o.client();
      return client ? queuedIn(outboxFor(client)) : [];
    },
    async decide(entryId, decision) {
      const client = connected();
      const ob = outboxFor(client);
      // Only an entry of this service that is waiting for exactly this answer.
      if (ob.list({ states: ['needs_decision'] }).every((e) => e.id !== entryId)) return false;
      if (decision === 'drop') {
        const dropped = ob.discard(entryId);
        changed(ob);
        return dropped;
      }
      const queued = ob.retry(entryId);
      if (queued) flushLater(ob);
      return queued;
    },
    async change(change) {
      const client = connected();
      return changeOne(client, openChangePlans(o.store, o.scope(client)), change);
    },
    async changeMany(updates) {
      const client = connected();
      const plans = openChangePlans(o.store, o.scope(client));
      // The same updates asked again while an earlier ask is unfinished finish it rather than start a second.
      const intent = intentOf({ command: 'postGroups.changeMany', updates });
      const plan =
        plans.unfinished(intent) ??
        plans.record(
          intent,
          updates.map((u) => ({ postId: u.post_id, update: u, before: null })),
        );
      const sent = await sendRecorded(client, plans, plan.id, { attempts: 4 });
      if (sent.plan.state === 'settled') plans.reported(plan.id);
      return sent;
    },
    /** Sends what a previous session left queued (on start and after each switch of connection). */
    async replay() {
      const client = o.client();
      if (!client) return;
      await outboxFor(client).replay();
    },
    close() {
      clearInterval(timer);
    },
  };
}

/** The new post's deliveries, read back from the list (the outbox keeps only their ids). */
async function deliveriesOf(client: ApiClient, postId: string, log: Logger): Promise<Delivery[]> {
  try {
    const { posts } = await retry(() => client.listPosts({ limit: LIMITS.pageSizeMax }), {
      attempts: 3,
      minDelayMs: 250,
      maxDelayMs: 1_000,
    });
    return posts.filter((d) => d.post_id === postId);
  } catch (error) {
    // The post exists; only reading it back failed: the page is answered without its deliveries.
    log.warn('reading back a created post failed', { postId, error: errorText(error) });
    return [];
  }
}

/** What the page is answered once the create settled (or stopped waiting): the post, a refusal, or "queued". */
async function answerOf(
  entry: OutboxEntry,
  req: Readonly<CreatePostRequest>,
  client: ApiClient,
  ob: Outbox,
  log: Logger,
): Promise<CreatePostResult> {
  if (entry.state === 'sent' && entry.result) {
    const social_posts = await deliveriesOf(client, entry.result.postId, log);
    const created_at = social_posts[0]?.created_at ?? entry.updatedAt;
    return {
      post: { id: entry.result.postId, caption: req.caption, created_at },
      social_posts,
      outbox_entry_id: entry.id,
    };
  }
  if (entry.state === 'failed') {
    // The user sees the refusal now and fixes the post; a refused entry has nothing left to retry.
    ob.discard(entry.id);
    const err = entry.error;
    throw new BridgeFault('api', serviceWords(err?.message ?? 'the service refused the post'), undefined, {
      status: err?.status,
      code: err?.code,
    });
  }
  if (entry.state === 'needs_decision') {
    // Still "queued" to the page: it lists the post from the outbox, where the person decides.
    throw new BridgeFault(
      'network',
      'The service did not confirm the post, and Postdesk cannot tell whether it was published. It is listed above the screen for you to decide; do not create it again.',
      undefined,
      { code: QUEUED_CODE },
    );
  }
  throw new BridgeFault(
    'network',
    'The service did not confirm the post yet. It is saved on this computer and is sent as soon as the service answers; do not create it again.',
    undefined,
    { code: QUEUED_CODE },
  );
}
