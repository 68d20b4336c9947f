import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CreatePostRequest } from '../../../src-shared/api/posts';
import type { BulkItem } from '../../../src-shared/api/bulk';
import type { ApiClient } from '../api/client';
import { ApiError, CredentialMissingError, NetworkError, ValidationError, isRefusal } from '../api/errors';
import { errorText } from '../common/error-text';
import { Emitter } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';
import { isProcessAlive } from '../common/process-alive';
import type { Store } from '../store/store';
import { readWindows, snapshotBeforeSend, type WindowCache } from './lookup';
import { judge } from './match';
import { OUTBOX_MIGRATIONS, OUTBOX_NAMESPACE } from './migrations';

/**
 * `unconfirmed`: a publish whose answer was lost, being looked for in the posts list. `needs_decision`: the list can
 * neither find it nor prove it was never created, so it is not sent again until a person says so (`retry`) or drops
 * it (`discard`).
 */
export const OUTBOX_STATES = [
  'pending',
  'sending',
  'sent',
  'unconfirmed',
  'needs_decision',
  'failed',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
/** Every state but `sent`: the entries `postdesk outbox` and `postdesk status` show. */
export const OPEN_OUTBOX_STATES = OUTBOX_STATES.filter((s) => s !== 'sent');
/** `bulk`: drafts and schedules, sent as a one-item bulk batch (idempotent by batch_id + item_key).
 *  `single`: publish-now (and posts with URL media), sent once through POST /api/cli/posts and reconciled. */
export type OutboxKind = 'bulk' | 'single';

export interface OutboxResult {
  readonly postId: string;
  readonly socialPostIds: readonly string[];
}
/** The failed delivery a create makes again (a retry), and why it failed: the new delivery's history. */
export interface RetryOf {
  readonly delivery_id: string;
  readonly post_id: string;
  readonly platform: string;
  readonly social_account_id: string;
  /** The service's reason (`last_error`), or null when it gave none. */
  readonly reason: string | null;
  readonly failed_at: string;
}

export interface OutboxFailure {
  readonly message: string;
  readonly status?: number;
  readonly code?: string | null;
}

export interface OutboxEntry {
  readonly id: string;
  readonly scope: string;
  readonly kind: OutboxKind;
  readonly state: OutboxState;
  readonly request: Readonly<CreatePostRequest>;
  readonly batchId: string | null;
  readonly itemKey: string | null;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly sentAt: number | null;
  readonly result: OutboxResult | null;
  /** For `failed`: why the service refused. For entries still waiting: the last transient error. */
  readonly error: OutboxFailure | null;
  /** Set when the create makes a failed delivery again. */
  readonly retryOf: RetryOf | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface FlushReport {
  readonly sent: number;
  readonly failed: number;
  readonly unconfirmed: number;
  /** Publishes Postdesk cannot tell were made or not; they wait for `retry` or `discard`. */
  readonly needsDecision: number;
  readonly pending: number;
  /** Set when flushing stopped early because every send would fail the same way (no API key). */
  readonly blocked: string | null;
}

export interface OutboxOptions {
  /** Which service the entries belong to (base URL, or "sandbox"); entries of other scopes are left alone. */
  scope?: string;
  /** How long after an unconfirmed send a listing must still show nothing before it is sent again. */
  settleMs?: number;
  /** How far apart the service's own clocks may be, when its `created_at` values are compared with each other. */
  serviceClockSlackMs?: number;
  /** Backoff after a transient failure: base * 2^attempts, capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  now?: () => number;
  /** Where failures the queue rides out (a listing that failed, a broken listener) are reported. */
  log?: Logger;
}

export interface Outbox {
  /** Validates and writes the create to the store. Nothing is sent until `flush()`. */
  enqueuePost(
    req: Readonly<CreatePostRequest> | Readonly<Record<string, unknown>>,
    opts?: { retryOf?: RetryOf },
  ): { entryId: string };
  /** The entry that makes this failed delivery again, unless it was refused (then it may be asked again). */
  retryOf(deliveryId: string): OutboxEntry | null;
  /** Every failed delivery retried and confirmed, by the id of each delivery its retry made. */
  retried(): Map<string, RetryOf>;
  /** Reconciles unconfirmed entries and sends due pending ones. */
  flush(opts?: { signal?: AbortSignal; force?: boolean }): Promise<FlushReport>;
  /** On start: takes back entries a dead process left in `sending`, then flushes. */
  replay(opts?: { signal?: AbortSignal }): Promise<FlushReport>;
  /** Flushes until the entry is sent or failed, or the time is up; returns the entry as it then is. */
  settle(entryId: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<OutboxEntry>;
  get(entryId: string): OutboxEntry | null;
  list(filter?: { states?: readonly OutboxState[]; limit?: number }): OutboxEntry[];
  /** Entries of this scope Postdesk is still working on: not sent, failed, nor waiting for a person's decision. */
  unfinishedCount(): number;
  /** Drops an entry that is not being sent right now (for `needs_decision`: the person says it was published). */
  discard(entryId: string): boolean;
  /** Puts a failed entry back in the queue; or a `needs_decision` one, when the person says it was not published. */
  retry(entryId: string): boolean;
  onDidChange(listener: (entry: OutboxEntry) => void): () => void;
}

interface Row {
  id: string;
  scope: string;
  kind: OutboxKind;
  request: string;
  batch_id: string | null;
  item_key: string | null;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  known_post_ids: string | null;
  fence_at: number | null;
  owner: string | null;
  result: string | null;
  error: string | null;
  retry_of: string | null;
  created_at: string;
  updated_at: string;
}

const HOST = hostname();
/** Outbox instances alive in this process; a `sending` row owned by any other is stale once its process is gone. */
const liveOwners = new Set<string>();

/** A row in `sending` whose owner can no longer be working on it. */
function ownerGone(owner: string | null, updatedAt: string, now: number): boolean {
  if (!owner) return true;
  if (liveOwners.has(owner)) return false;
  const [host, pidText] = owner.split('|');
  const pid = Number(pidText);
  if (host === HOST && Number.isInteger(pid)) return pid === process.pid || !isProcessAlive(pid);
  // Another machine sharing the file: trust it for a while.
  return now - Date.parse(updatedAt) > 10 * 60_000;
}

function toEntry(r: Row): OutboxEntry {
  return {
    id: r.id,
    scope: r.scope,
    kind: r.kind,
    state: r.state,
    request: JSON.parse(r.request) as CreatePostRequest,
    batchId: r.batch_id,
    itemKey: r.item_key,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    sentAt: r.sent_at,
    result: r.result ? (JSON.parse(r.result) as OutboxResult) : null,
    error: r.error ? (JSON.parse(r.error) as OutboxFailure) : null,
    retryOf: r.retry_of ? (JSON.parse(r.retry_of) as RetryOf) : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function failureOf(err: unknown): OutboxFailure {
  if (err instanceof ApiError) return { message: err.message, status: err.status, code: err.wireCode };
  return { message: errorText(err) };
}

class Blocked extends Error {}

/** States `settle` stops at: nothing more happens to the entry without a person. */
const settled = (state: OutboxState): boolean =>
  state === 'sent' || state === 'failed' || state === 'needs_decision';

/** Failures raised before a request leaves this machine (no key, no keychain), not by the service or network. */
function isLocalFailure(err: unknown): boolean {
  return (
    err instanceof CredentialMissingError ||
    !(err instanceof ApiError || err instanceof NetworkError || err instanceof ValidationError)
  );
}

/**
 * The durable queue of post creates. Every create is in SQLite, with the identity that makes it safe to repeat,
 * before a byte is sent, so a crash or a lost response can neither lose a post nor create it twice.
 */
// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the store's entries, the sender's lock and the listeners); each method is short and named
export function createOutbox(store: Store, client: ApiClient, options: OutboxOptions = {}): Outbox {
  store.migrate(OUTBOX_NAMESPACE, OUTBOX_MIGRATIONS);
  const db = store.db;
  const scope = options.scope ?? client.baseUrl;
  const settleMs = options.settleMs ?? 30_000;
  const slackMs = options.serviceClockSlackMs ?? 60_000;
  const retryBaseMs = options.retryBaseMs ?? 2_000;
  const retryMaxMs = options.retryMaxMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const owner = `${HOST}|${process.pid}|${randomUUID()}`;
  liveOwners.add(owner);
  const log = options.log ?? silentLogger;
  // A listener's failure must not break the queue.
  const changes = new Emitter<OutboxEntry>((error) =>
    log.warn('an outbox listener failed', { error: errorText(error) }),
  );
  let chain: Promise<unknown> = Promise.resolve();

  const iso = () => new Date(now()).toISOString();
  const getRow = db.prepare<[string], Row>('SELECT * FROM outbox_entries WHERE id = ?');
  const retryOfRow = db.prepare<[string, string], Row>(
    `SELECT * FROM outbox_entries WHERE scope = ? AND json_extract(retry_of, '$.delivery_id') = ?
       AND retry_of IS NOT NULL AND state != 'failed' ORDER BY created_at DESC LIMIT 1`,
  );
  const rowsIn = db.prepare<[string, string], Row>(
    'SELECT * FROM outbox_entries WHERE scope = ? AND state = ? ORDER BY created_at, rowid',
  );

  function emit(id: string): void {
    const r = getRow.get(id);
    if (!r) return;
    changes.fire(toEntry(r));
  }

  /** Moves an entry from one state to another; false when it was not in `from` (someone else moved it). */
  function move(
    id: string,
    from: OutboxState | OutboxState[],
    to: OutboxState,
    set: Partial<Row> = {},
  ): boolean {
    const froms = Array.isArray(from) ? from : [from];
    const cols = Object.keys(set);
    const sql =
      `UPDATE outbox_entries SET state = @to, updated_at = @updated_at` +
      cols.map((c) => `, ${c} = @${c}`).join('') +
      ` WHERE id = @id AND state IN (${froms.map((_, i) => `@from${i}`).join(', ')})`;
    const params: Record<string, unknown> = { ...set, to, id, updated_at: iso() };
    froms.forEach((f, i) => (params[`from${i}`] = f));
    const changed = db.prepare(sql).run(params).changes > 0;
    if (changed) emit(id);
    return changed;
  }

  function backoff(attempts: number): number {
    return now() + Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempts - 1));
  }

  function recoverStale(): void {
    const t = now();
    db.transaction(() => {
      for (const r of rowsIn.all(scope, 'sending')) {
        if (!ownerGone(r.owner, r.updated_at, t)) continue;
        // A bulk send is idempotent: send it again. A single send that may have left must be reconciled first.
        if (r.kind === 'single' && r.sent_at !== null) move(r.id, 'sending', 'unconfirmed', { owner: null });
        else move(r.id, 'sending', 'pending', { owner: null, next_attempt_at: t });
      }
    }).immediate();
  }

  function claimedPostIds(): Set<string> {
    const ids = new Set<string>();
    const rows = db
      .prepare<[string], { result: string }>(
        `SELECT result FROM outbox_entries WHERE scope = ? AND result IS NOT NULL`,
      )
      .all(scope);
    for (const r of rows) ids.add((JSON.parse(r.result) as OutboxResult).postId);
    return ids;
  }

  /**
   * Looks for an unconfirmed (or undecided) publish in the narrowed posts lists. Found: sent. After the settle
   * interval, proven never created: sent again; anything less than proof: `needs_decision`, never a second send.
   */
  async function reconcile(
    r: Row,
    cache: WindowCache,
    listedAt: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const req = JSON.parse(r.request) as CreatePostRequest;
    const windows = await readWindows(client, req, cache, signal);
    const verdict = judge(windows, req, {
      known: new Set(r.known_post_ids ? (JSON.parse(r.known_post_ids) as string[]) : []),
      taken: claimedPostIds(),
      fenceAt: r.fence_at,
      slackMs,
    });
    if (verdict.kind === 'found') {
      move(r.id, r.state, 'sent', {
        result: JSON.stringify({
          postId: verdict.postId,
          socialPostIds: verdict.socialPostIds,
        } satisfies OutboxResult),
        error: null,
      });
      return;
    }
    if (r.state !== 'unconfirmed' || r.sent_at === null || listedAt - r.sent_at < settleMs) return;
    if (verdict.kind === 'absent') {
      // The lost request never created anything: send it again.
      move(r.id, 'unconfirmed', 'pending', { next_attempt_at: now(), sent_at: null });
    } else {
      move(r.id, 'unconfirmed', 'needs_decision');
    }
  }

  function bulkItem(r: Row, req: CreatePostRequest): BulkItem {
    const item: BulkItem = {
      item_key: r.item_key as string,
      caption: req.caption,
      targets: req.targets,
    };
    if (req.title !== undefined) item.title = req.title;
    if (req.media && req.media.length > 0) {
      item.media = req.media.map((m) => ({ asset_id: (m as { asset_id: string }).asset_id }));
    }
    if (req.action === 'draft') item.action = 'draft';
    if (req.scheduled_at !== undefined) item.scheduled_at = req.scheduled_at;
    return item;
  }

  /** After a failed send: refusal → failed, transient → pending with backoff (or unconfirmed if it may have landed). */
  function onSendError(r: Row, err: unknown, mayHaveLanded: boolean): void {
    const error = JSON.stringify(failureOf(err));
    if (isLocalFailure(err)) {
      // No key, or no keychain: the request never left, and every other entry would fail the same way.
      move(r.id, 'sending', 'pending', { owner: null, sent_at: null, attempts: r.attempts, error });
      throw new Blocked(failureOf(err).message);
    }
    const refused = isRefusal(err);
    if (refused) {
      move(r.id, 'sending', 'failed', { owner: null, error });
    } else if (mayHaveLanded && r.kind === 'single') {
      move(r.id, 'sending', 'unconfirmed', { owner: null, error });
    } else {
      move(r.id, 'sending', 'pending', {
        owner: null,
        sent_at: null,
        error,
        next_attempt_at: backoff(r.attempts + 1),
      });
    }
  }

  async function sendOne(r: Row, signal?: AbortSignal): Promise<void> {
    if (!move(r.id, 'pending', 'sending', { owner, attempts: r.attempts + 1 })) return;
    const req = JSON.parse(r.request) as CreatePostRequest;
    if (r.kind === 'bulk') {
      try {
        const res = await client.bulkCreate(
          { batch_id: r.batch_id as string, items: [bulkItem(r, req)] },
          { signal },
        );
        const item = res.items.find((i) => i.item_key === r.item_key);
        if (item?.status === 'created' && item.post_id) {
          move(r.id, 'sending', 'sent', {
            owner: null,
            error: null,
            result: JSON.stringify({
              postId: item.post_id,
              socialPostIds: item.social_post_ids,
            } satisfies OutboxResult),
          });
        } else if (item?.status === 'failed') {
          move(r.id, 'sending', 'failed', {
            owner: null,
            error: JSON.stringify({ message: item.error ?? 'the service refused the item' }),
          });
        } else {
          onSendError(r, new Error('the bulk result does not list this item'), false);
        }
      } catch (err) {
        onSendError(r, err, false);
      }
      return;
    }

    // single: remember which identical posts already exist, and how far the list reached, so reconciliation can
    // tell ours apart and knows which windows reach back before the send.
    let snapshot: Awaited<ReturnType<typeof snapshotBeforeSend>>;
    try {
      snapshot = await snapshotBeforeSend(client, req, signal);
    } catch (err) {
      onSendError(r, err, false);
      return;
    }
    db.prepare(
      `UPDATE outbox_entries SET sent_at = ?, known_post_ids = ?, fence_at = ?, updated_at = ?
       WHERE id = ? AND state = ?`,
    ).run(now(), JSON.stringify(snapshot.known), snapshot.fenceAt, iso(), r.id, 'sending');
    try {
      const res = await client.createPost(req, { signal });
      move(r.id, 'sending', 'sent', {
        owner: null,
        error: null,
        result: JSON.stringify({
          postId: res.post.id,
          socialPostIds: res.social_posts.map((d) => d.id),
        } satisfies OutboxResult),
      });
    } catch (err) {
      // A 2xx whose body broke the contract (INVALID_RESPONSE) did create the post.
      const mayHaveLanded =
        (err instanceof NetworkError && err.maybeCommitted) ||
        (err instanceof ApiError && (err.status >= 500 || err.status < 400));
      onSendError(r, err, mayHaveLanded);
    }
  }

  function counts(): FlushReport {
    const rows = db
      .prepare<[string], { state: OutboxState; n: number }>(
        'SELECT state, COUNT(*) AS n FROM outbox_entries WHERE scope = ? GROUP BY state',
      )
      .all(scope);
    const c = Object.fromEntries(rows.map((r) => [r.state, r.n])) as Partial<Record<OutboxState, number>>;
    return {
      sent: c.sent ?? 0,
      failed: c.failed ?? 0,
      unconfirmed: c.unconfirmed ?? 0,
      needsDecision: c.needs_decision ?? 0,
      pending: (c.pending ?? 0) + (c.sending ?? 0),
      blocked: null,
    };
  }

  async function flushNow(signal?: AbortSignal, force = false): Promise<FlushReport> {
    recoverStale();
    let blocked: string | null = null;
    try {
      const cache: WindowCache = new Map();
      // Before any list is read: the settle interval is measured to a moment no later than the reading.
      const listedAt = now();
      const looking = [...rowsIn.all(scope, 'unconfirmed'), ...rowsIn.all(scope, 'needs_decision')];
      for (const r of looking) {
        try {
          await reconcile(r, cache, listedAt, signal);
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
      const t = now();
      for (const r of rowsIn.all(scope, 'pending')) {
        if (!force && r.next_attempt_at > t) continue;
        signal?.throwIfAborted();
        await sendOne(r, signal);
      }
    } catch (err) {
      if (!(err instanceof Blocked)) throw err;
      blocked = err.message;
    }
    return { ...counts(), blocked };
  }

  function serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  }

  const outbox: Outbox = {
    enqueuePost(input, opts) {
      const parsed = CreatePostRequest.safeParse(input);
      if (!parsed.success) throw ValidationError.fromZod(parsed.error, 'createPost', 'post');
      const req = parsed.data;
      const urlMedia = (req.media ?? []).some((m) => 'url' in m);
      const kind: OutboxKind =
        (req.action === 'draft' || req.scheduled_at !== undefined) && !urlMedia ? 'bulk' : 'single';
      const id = randomUUID();
      const t = iso();
      const retryOf = opts?.retryOf ?? null;
      // One retry per failed delivery: looked up and written in one transaction, so two clicks (or two processes)
      // that ask at once make it once; the second is answered with the first one's entry.
      const entryId = db
        .transaction((): string => {
          const earlier = retryOf ? retryOfRow.get(scope, retryOf.delivery_id) : undefined;
          if (earlier) return earlier.id;
          db.prepare(
            `INSERT INTO outbox_entries (id, scope, kind, request, batch_id, item_key, state, attempts, next_attempt_at,
                                         retry_of, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)`,
          ).run(
            id,
            scope,
            kind,
            JSON.stringify(req),
            kind === 'bulk' ? randomUUID() : null,
            kind === 'bulk' ? id : null,
            retryOf ? JSON.stringify(retryOf) : null,
            t,
            t,
          );
          return id;
        })
        .immediate();
      if (entryId === id) emit(id);
      return { entryId };
    },
    retryOf(deliveryId) {
      const r = retryOfRow.get(scope, deliveryId);
      return r ? toEntry(r) : null;
    },
    retried() {
      const out = new Map<string, RetryOf>();
      const rows = db
        .prepare<[string], { result: string; retry_of: string }>(
          `SELECT result, retry_of FROM outbox_entries
           WHERE scope = ? AND retry_of IS NOT NULL AND state = 'sent' AND result IS NOT NULL`,
        )
        .all(scope);
      for (const r of rows) {
        const of = JSON.parse(r.retry_of) as RetryOf;
        for (const id of (JSON.parse(r.result) as OutboxResult).socialPostIds) out.set(id, of);
      }
      return out;
    },
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
      const r = getRow.get(entryId);
      return r ? toEntry(r) : null;
    },
    list(filter) {
      const states = filter?.states ?? OUTBOX_STATES;
      const rows = db
        .prepare<unknown[], Row>(
          `SELECT * FROM outbox_entries WHERE scope = ? AND state IN (${states.map(() => '?').join(', ')})
           ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        )
        .all(scope, ...states, filter?.limit ?? 1000);
      return rows.map(toEntry);
    },
    unfinishedCount() {
      return (
        db
          .prepare<[string], { n: number }>(
            `SELECT COUNT(*) AS n FROM outbox_entries WHERE scope = ? AND state IN ('pending', 'sending', 'unconfirmed')`,
          )
          .get(scope)?.n ?? 0
      );
    },
    discard(entryId) {
      const changed =
        db
          .prepare(
            `DELETE FROM outbox_entries WHERE id = ? AND state IN ('pending', 'failed', 'sent', 'needs_decision')`,
          )
          .run(entryId).changes > 0;
      return changed;
    },
    retry(entryId) {
      return move(entryId, ['failed', 'needs_decision'], 'pending', {
        next_attempt_at: now(),
        error: null,
        sent_at: null,
      });
    },
    onDidChange(listener) {
      const d = changes.event(listener);
      return () => d.dispose();
    },
  };
  return outbox;
}
