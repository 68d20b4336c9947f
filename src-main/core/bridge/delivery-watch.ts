import { STILL_SCHEDULED_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { LIMITS } from '../../../src-shared/api/limits';
import { DELIVERY_STATUSES, type Delivery } from '../../../src-shared/api/posts';
import type { DeliveryFailed } from '../../../src-shared/ipc/posts';
import type { DeliveryUnconfirmed } from '../../../src-shared/ipc/watch';
import type { Migration, Store } from '../store/store';
import { toldOnce, toldOnceTablesSql } from '../store/told-once';
import { errorText } from '../common/error-text';
import { createPoller } from '../common/poller';
import { Emitter, type Disposable } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';
import type { BridgeApi, DeliveryWatchPort } from './ports';

export const DELIVERY_WATCH_NAMESPACE = 'delivery_watch';

/** The failures reported, once per service. */
const TOLD = {
  told: 'delivery_watch_reported',
  key: 'delivery_id',
  at: 'reported_at',
  scopes: 'delivery_watch_scopes',
} as const;

export const DELIVERY_WATCH_MIGRATIONS: readonly Migration[] = [
  { version: 1, up: toldOnceTablesSql(TOLD) },
  {
    // Scheduled deliveries whose time passed (plus the grace) without the service saying `posted`.
    version: 2,
    up: `CREATE TABLE delivery_watch_unconfirmed (
           scope TEXT NOT NULL,
           delivery_id TEXT NOT NULL,
           post_id TEXT NOT NULL,
           platform TEXT NOT NULL,
           scheduled_at TEXT NOT NULL,
           found_at TEXT NOT NULL,
           PRIMARY KEY (scope, delivery_id)
         );`,
  },
];

/** How long after a post's time the watch waits for `posted` before it says "not confirmed" (setting default). */
export const DEFAULT_CONFIRM_GRACE_MS = 15 * 60_000;
/** Statuses of a delivery whose time may have passed without it being published. */
const PENDING_STATUSES = STILL_SCHEDULED_STATUSES;
/** Statuses a delivery settles in once it went out or gave up: neither waiting nor a draft. */
const SETTLED_STATUSES = DELIVERY_STATUSES.filter((s) => s !== 'draft' && !PENDING_STATUSES.includes(s));

/** Where the UI shows a delivery; the same form the desktop's deep links take. */
export const postLink = (deliveryId: string): string => `postdesk://post/${deliveryId}`;

export interface DeliveryWatchOptions {
  readonly store: Store;
  /** The current service's client, or null while disconnected. */
  readonly client: () => Pick<BridgeApi, 'listPosts'> | null;
  /** Which service the memory belongs to ("sandbox", or the base URL). */
  readonly scope: () => string;
  readonly intervalMs?: number;
  readonly now?: () => Date;
  /** Where a failed poll or a failing listener is reported (the next tick tries again). */
  readonly log?: Logger;
  /** How long after its time a scheduled delivery may take to say `posted` (the setting; read at each check). */
  readonly confirmGraceMs?: () => number;
}

export interface DeliveryWatch extends DeliveryWatchPort {
  onDidFailDelivery(listener: (d: DeliveryFailed) => void): Disposable;
  /** A scheduled delivery's time passed (and the grace) without `posted`: told once per delivery. */
  onDidNotConfirm(listener: (d: DeliveryUnconfirmed) => void): Disposable;
  /** Polls every `intervalMs` (and now). */
  start(): Disposable;
  dispose(): void;
}

function toFailed(d: Delivery): DeliveryFailed {
  return {
    id: d.id,
    post_id: d.post_id,
    platform: d.platform,
    social_account_id: d.social_account_id,
    error: d.last_error ?? null,
    failed_at: d.updated_at,
    link: postLink(d.id),
  };
}

/**
 * Polls the posts list for `failed` deliveries and reports each one once: what it reported is kept in
 * the store, so a restart does not report it again. The first check of a service only records the
 * failures already there (a new connection would otherwise announce a whole history at once).
 */
/** A row of `delivery_watch_unconfirmed` as the pages see it, with its link. */
const toUnconfirmed = (r: {
  delivery_id: string;
  post_id: string;
  platform: string;
  scheduled_at: string;
  found_at: string;
}): DeliveryUnconfirmed => ({
  id: r.delivery_id,
  post_id: r.post_id,
  platform: r.platform as DeliveryUnconfirmed['platform'],
  scheduled_at: r.scheduled_at,
  found_at: r.found_at,
  link: postLink(r.delivery_id),
});

export function createDeliveryWatch(o: DeliveryWatchOptions): DeliveryWatch {
  o.store.migrate(DELIVERY_WATCH_NAMESPACE, DELIVERY_WATCH_MIGRATIONS);
  const db = o.store.db;
  const now = o.now ?? (() => new Date());
  const log = o.log ?? silentLogger;
  // One listener's failure must not keep the others from hearing about it.
  const failures = new Emitter<DeliveryFailed>((error) =>
    log.warn('a failed-delivery listener failed', { error: errorText(error) }),
  );
  const reported = toldOnce(db, TOLD);
  const notConfirmed = new Emitter<DeliveryUnconfirmed>((error) =>
    log.warn('a not-confirmed listener failed', { error: errorText(error) }),
  );
  const rememberUnconfirmed = db.prepare<[string, string, string, string, string, string]>(
    `INSERT OR IGNORE INTO delivery_watch_unconfirmed (scope, delivery_id, post_id, platform, scheduled_at, found_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const forgetUnconfirmed = db.prepare<[string, string]>(
    'DELETE FROM delivery_watch_unconfirmed WHERE scope = ? AND delivery_id = ?',
  );
  const listUnconfirmed = db.prepare<
    [string],
    { delivery_id: string; post_id: string; platform: string; scheduled_at: string; found_at: string }
  >('SELECT * FROM delivery_watch_unconfirmed WHERE scope = ? ORDER BY scheduled_at DESC');

  /**
   * A delivery still scheduled (or retrying) once its time and the grace have passed was not published when it
   * should have been: kept (the Posts screen marks it) and told once. One the service shows `posted` or `failed`
   * again is forgotten: `posted` is confirmed, and a failure is told as a failure.
   */
  const checkUnconfirmed = async (
    client: Pick<BridgeApi, 'listPosts'>,
    scope: string,
    baseline: boolean,
  ): Promise<DeliveryUnconfirmed[]> => {
    const graceMs = o.confirmGraceMs?.() ?? DEFAULT_CONFIRM_GRACE_MS;
    const lists = await Promise.all(
      [...PENDING_STATUSES, ...SETTLED_STATUSES].map((status) =>
        client.listPosts({ status, limit: LIMITS.pageSizeMax }).then((r) => r.posts),
      ),
    );
    const pending = lists.slice(0, PENDING_STATUSES.length).flat();
    const settled = lists.slice(PENDING_STATUSES.length).flat();
    const t = now();
    const at = t.toISOString();
    const fresh: DeliveryUnconfirmed[] = [];
    db.transaction(() => {
      for (const d of settled) forgetUnconfirmed.run(scope, d.id);
      for (const d of pending) {
        if (!(PENDING_STATUSES as readonly string[]).includes(d.status) || !d.scheduled_at) continue;
        if (Date.parse(d.scheduled_at) + graceMs > t.getTime()) continue;
        const row = {
          delivery_id: d.id,
          post_id: d.post_id,
          platform: d.platform,
          scheduled_at: d.scheduled_at,
          found_at: at,
        };
        if (
          rememberUnconfirmed.run(scope, d.id, d.post_id, d.platform, d.scheduled_at, at).changes > 0 &&
          !baseline
        )
          fresh.push(toUnconfirmed(row));
      }
    })();
    return fresh;
  };

  const check = async (): Promise<readonly DeliveryFailed[]> => {
    const client = o.client();
    if (!client) return [];
    const scope = o.scope();
    const { posts } = await client.listPosts({ status: 'failed', limit: LIMITS.pageSizeMax });
    const failed = posts.filter((d) => d.status === 'failed');
    const { baseline, fresh: told } = reported.record(scope, failed, (d) => d.id, now().toISOString());
    const fresh = told.map(toFailed);
    for (const f of fresh) failures.fire(f);
    const unconfirmed = await checkUnconfirmed(client, scope, baseline);
    for (const u of unconfirmed) notConfirmed.fire(u);
    return fresh;
  };

  const poller = createPoller({
    check,
    intervalMs: o.intervalMs,
    log,
    what: 'checking for failed deliveries',
    owns: [failures, notConfirmed],
  });
  const watch: DeliveryWatch = {
    checkNow: () => poller.checkNow(),
    onDidFailDelivery: failures.event,
    onDidNotConfirm: notConfirmed.event,
    unconfirmed() {
      return listUnconfirmed.all(o.scope()).map(toUnconfirmed);
    },
    start: () => poller.start(),
    dispose: () => poller.dispose(),
  };
  return watch;
}
