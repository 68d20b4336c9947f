import { LIMITS } from '../../../src-shared/api/limits';
import type { Delivery } from '../../../src-shared/api/posts';
import type { DeliveryFailed } from '../../../src-shared/ipc/posts';
import type { Migration, Store } from '../store/store';
import { errorText } from '../common/error-text';
import { Emitter, type Disposable } from '../common/events';
import { silentLogger, type Logger } from '../common/logger';
import type { BridgeApi, DeliveryWatchPort } from './ports';

export const DELIVERY_WATCH_NAMESPACE = 'delivery_watch';

export const DELIVERY_WATCH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE delivery_watch_reported (
           scope TEXT NOT NULL,
           delivery_id TEXT NOT NULL,
           reported_at TEXT NOT NULL,
           PRIMARY KEY (scope, delivery_id)
         );
         CREATE TABLE delivery_watch_scopes (
           scope TEXT PRIMARY KEY,
           baseline_at TEXT NOT NULL
         );`,
  },
];

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
}

export interface DeliveryWatch extends DeliveryWatchPort {
  onDidFailDelivery(listener: (d: DeliveryFailed) => void): Disposable;
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
export function createDeliveryWatch(o: DeliveryWatchOptions): DeliveryWatch {
  o.store.migrate(DELIVERY_WATCH_NAMESPACE, DELIVERY_WATCH_MIGRATIONS);
  const db = o.store.db;
  const now = o.now ?? (() => new Date());
  const log = o.log ?? silentLogger;
  // One listener's failure must not keep the others from hearing about it.
  const failures = new Emitter<DeliveryFailed>((error) =>
    log.warn('a failed-delivery listener failed', { error: errorText(error) }),
  );
  const hasBaseline = db.prepare<[string], { scope: string }>(
    'SELECT scope FROM delivery_watch_scopes WHERE scope = ?',
  );
  const setBaseline = db.prepare<[string, string]>(
    'INSERT OR IGNORE INTO delivery_watch_scopes (scope, baseline_at) VALUES (?, ?)',
  );
  const remember = db.prepare<[string, string, string]>(
    'INSERT OR IGNORE INTO delivery_watch_reported (scope, delivery_id, reported_at) VALUES (?, ?, ?)',
  );
  let checking: Promise<readonly DeliveryFailed[]> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  const check = async (): Promise<readonly DeliveryFailed[]> => {
    const client = o.client();
    if (!client) return [];
    const scope = o.scope();
    const { posts } = await client.listPosts({ status: 'failed', limit: LIMITS.pageSizeMax });
    const failed = posts.filter((d) => d.status === 'failed');
    const at = now().toISOString();
    const baseline = !hasBaseline.get(scope);
    const fresh: DeliveryFailed[] = [];
    db.transaction(() => {
      if (baseline) setBaseline.run(scope, at);
      for (const d of failed) {
        if (remember.run(scope, d.id, at).changes > 0 && !baseline) fresh.push(toFailed(d));
      }
    })();
    for (const f of fresh) failures.fire(f);
    return fresh;
  };

  const watch: DeliveryWatch = {
    // One check at a time: a timer tick and a click must not report the same failure twice.
    checkNow() {
      checking ??= check().finally(() => {
        checking = null;
      });
      return checking;
    },
    onDidFailDelivery: failures.event,
    start() {
      const tick = () =>
        void watch
          .checkNow()
          .catch((error: unknown) =>
            log.warn('checking for failed deliveries failed', { error: errorText(error) }),
          );
      if (timer) clearInterval(timer);
      timer = setInterval(tick, o.intervalMs ?? 2 * 60_000);
      timer.unref?.();
      tick();
      return {
        dispose: () => {
          if (timer) clearInterval(timer);
          timer = null;
        },
      };
    },
    dispose() {
      if (timer) clearInterval(timer);
      timer = null;
      failures.dispose();
    },
  };
  return watch;
}
