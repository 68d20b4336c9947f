import { CreatePostRequest } from '../../../src-shared/api/posts';
import type { ApiClient } from '../api/client';
import { ValidationError } from '../api/errors';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { Store } from '../store/store';
import type { WindowCache } from './lookup';
import { Blocked, failureOf, isLocalFailure, reconcile, sendOne, type SendContext } from './outbox-send';
import { openOutboxTable, toEntry } from './outbox-table';
import {
  OUTBOX_STATES,
  type FlushReport,
  type Outbox,
  type OutboxEntry,
  type OutboxKind,
  type OutboxOptions,
  type OutboxState,
} from './outbox-types';

export {
  OPEN_OUTBOX_STATES,
  OUTBOX_STATES,
  type FlushReport,
  type Outbox,
  type OutboxEntry,
  type OutboxFailure,
  type OutboxKind,
  type OutboxOptions,
  type OutboxResult,
  type OutboxState,
  type RetryOf,
} from './outbox-types';

/** States `settle` stops at: nothing more happens to the entry without a person. */
const settled = (state: OutboxState): boolean =>
  state === 'sent' || state === 'failed' || state === 'needs_decision';

/**
 * The durable queue of post creates. Every create is in SQLite, with the identity that makes it safe to repeat,
 * before a byte is sent, so a crash or a lost response can neither lose a post nor create it twice. The rows and
 * their moves are outbox-table.ts; sending and reconciling one entry, outbox-send.ts.
 */
export function createOutbox(store: Store, client: ApiClient, options: OutboxOptions = {}): Outbox {
  const now = options.now ?? Date.now;
  const log = options.log ?? silentLogger;
  const table = openOutboxTable(store, options.scope ?? client.baseUrl, now, log);
  const settleMs = options.settleMs ?? 30_000;
  const retryBaseMs = options.retryBaseMs ?? 2_000;
  const retryMaxMs = options.retryMaxMs ?? 5 * 60_000;
  const send: SendContext = {
    table,
    client,
    settleMs,
    slackMs: options.serviceClockSlackMs ?? 60_000,
    backoff: (attempts) => now() + Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempts - 1)),
  };
  let chain: Promise<unknown> = Promise.resolve();

  function serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  }

  const flushNow = (signal?: AbortSignal, force = false) => flushEntries(send, log, signal, force);

  const outbox: Outbox = {
    enqueuePost(input, opts) {
      const parsed = CreatePostRequest.safeParse(input);
      if (!parsed.success) throw ValidationError.fromZod(parsed.error, 'createPost', 'post');
      const req = parsed.data;
      const urlMedia = (req.media ?? []).some((m) => 'url' in m);
      const kind: OutboxKind =
        (req.action === 'draft' || req.scheduled_at !== undefined) && !urlMedia ? 'bulk' : 'single';
      return { entryId: table.insert(kind, req, opts?.retryOf ?? null) };
    },
    retryOf(deliveryId) {
      const r = table.retryOfRow(deliveryId);
      return r ? toEntry(r) : null;
    },
    retried: () => table.retried(),
    flush: (opts) => serialized(() => flushNow(opts?.signal, opts?.force)),
    replay: (opts) => serialized(() => flushNow(opts?.signal, true)),
    async settle(entryId, opts) {
      const deadline = now() + (opts?.timeoutMs ?? 60_000);
      for (;;) {
        const before = outbox.get(entryId);
        if (!before) throw new Error(`no outbox entry ${entryId}`);
        if (settled(before.state)) return before;
        const report = await outbox.flush({ signal: opts?.signal, force: true });
        const after = outbox.get(entryId) as OutboxEntry;
        if (settled(after.state) || report.blocked || now() >= deadline) return after;
        const wait =
          after.state === 'unconfirmed' ? Math.min(settleMs / 4, 2_000) : Math.min(retryBaseMs, 2_000);
        await new Promise((resolve) => setTimeout(resolve, Math.max(50, Math.min(wait, deadline - now()))));
      }
    },
    get(entryId) {
      const r = table.get(entryId);
      return r ? toEntry(r) : null;
    },
    list: (filter) => table.list(filter?.states ?? OUTBOX_STATES, filter?.limit ?? 1000).map(toEntry),
    unfinishedCount: () => table.unfinishedCount(),
    discard: (entryId) => table.discard(entryId),
    retry(entryId) {
      return table.move(entryId, ['failed', 'needs_decision'], 'pending', {
        next_attempt_at: now(),
        error: null,
        sent_at: null,
      });
    },
    onDidChange(listener) {
      const d = table.onDidChange(listener);
      return () => d.dispose();
    },
  };
  return outbox;
}

/** Reconciles the entries whose send was lost, then sends the due pending ones; stops early when blocked. */
async function flushEntries(
  send: SendContext,
  log: Logger,
  signal: AbortSignal | undefined,
  force: boolean,
): Promise<FlushReport> {
  const { table } = send;
  table.recoverStale();
  let blocked: string | null = null;
  try {
    const cache: WindowCache = new Map();
    // Before any list is read: the settle interval is measured to a moment no later than the reading.
    const listedAt = table.now();
    const looking = [...table.rowsIn('unconfirmed'), ...table.rowsIn('needs_decision')];
    for (const r of looking) {
      try {
        await reconcile(send, r, cache, listedAt, signal);
      } catch (err) {
        if (isLocalFailure(err)) throw new Blocked(failureOf(err).message);
        // The listing failed: stay unconfirmed and try again next time.
        log.warn('looking for an unconfirmed post failed; trying again at the next flush', {
          entryId: r.id,
          error: errorText(err),
        });
        break;
      }
    }
    const t = table.now();
    for (const r of table.rowsIn('pending')) {
      if (!force && r.next_attempt_at > t) continue;
      signal?.throwIfAborted();
      await sendOne(send, r, signal);
    }
  } catch (err) {
    if (!(err instanceof Blocked)) throw err;
    blocked = err.message;
  }
  return { ...table.counts(), blocked };
}
