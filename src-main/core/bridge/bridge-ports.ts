import type { ApiClient } from '../api/client';
import { readSettings } from '../config/settings';
import { createDeliveryFeed, type DeliveryFeed } from '../deliveries/delivery-feed';
import { indexLookup } from '../bulk/reimport';
import { createSettingsTools, toolSettingsOf, type Tools } from '../media/tools';
import type { Logger } from '../common/logger';
import type { QueueService } from '../queue/queue-service';
import type { AssembleOptions } from './assemble-options';
import { createBulkPort } from './bulk-port';
import { createDeliveryWatch, type DeliveryWatch } from './delivery-watch';
import type { BridgeEvents } from './events';
import { createExportPort } from './export-port';
import { createPostOutboxPort } from './post-outbox';
import type { BulkPort, ExportPort, PostCreatePort, UploadPort } from './ports';
import { createQueuePort } from './queue-handlers';
import { createUploadPort } from './uploads';

/** The core's ports on the session's current client, each learning into one delivery index. */
export interface CorePorts {
  readonly feed: DeliveryFeed;
  /** The current client, wrapped so that every answer about posts feeds the index; null when not connected. */
  current(): ApiClient | null;
  /** The same wrapper for a client the session hands out. */
  learning<C extends object>(client: C): C;
  /** The scope the index, the outbox and the uploads file a client's records under. */
  scopeOf(client: ApiClient | null): string;
  readonly tools: Tools;
  readonly uploads: UploadPort;
  readonly posts: PostCreatePort & { close(): void };
  readonly deliveries: DeliveryWatch;
  readonly queue: QueueService;
  readonly bulk: BulkPort;
  readonly exports: ExportPort;
}

/**
 * Builds the ports the handlers need, on the session's current client. `onDidRetry` hears each retry the outbox
 * made (the post-change feed retells it).
 */
export function openCorePorts(
  o: AssembleOptions,
  events: BridgeEvents,
  log: Logger,
  onDidRetry: (postIds: readonly string[]) => void,
): CorePorts {
  // Every answer about posts, whichever module asked for it, feeds the local delivery index.
  const feed = createDeliveryFeed({
    store: o.store,
    client: () => current(),
    scope: () => scopeOf(current()),
    log,
  });
  const learning = <C extends object>(client: C): C => {
    const scope = scopeOf(client as unknown as ApiClient);
    return feed.observe(client, () => scope);
  };
  const current = () => {
    const client = o.session.current();
    return client && learning(client);
  };
  const scopeOf = (client: ApiClient | null) => (o.session.isOffline() ? 'sandbox' : (client?.baseUrl ?? ''));
  const scope = () => scopeOf(current());
  // The Settings screen may change the ffmpeg/ffprobe paths at any time: read them at each use.
  const tools = createSettingsTools(() => toolSettingsOf(readSettings(o.store)));
  const uploads = createUploadPort({ store: o.store, client: current, tools });
  const posts = createPostOutboxPort({
    store: o.store,
    client: current,
    scope: (client) => scopeOf(client),
    ...(o.createSettleMs !== undefined ? { settleMs: o.createSettleMs } : {}),
    onDidChangeQueued: (queued) => events.emit('posts:didChangeQueued', { posts: [...queued] }),
    onDidRetry: (entry) => onDidRetry(entry.result?.socialPostIds ?? []),
    log,
  });
  const deliveries = createDeliveryWatch({
    store: o.store,
    client: current,
    scope,
    ...(o.deliveryWatchMs ? { intervalMs: o.deliveryWatchMs } : {}),
    confirmGraceMs: () => readSettings(o.store).deliveryConfirmMinutes * 60_000,
    log,
  });
  // One queue: its placements run one at a time, whichever screen asked.
  const queue = createQueuePort({ store: o.store, feed, client: current, scope, posts });
  const bulk =
    o.bulk ??
    createBulkPort({
      store: o.store,
      client: current,
      scope,
      stagingDir: o.stagingDir,
      tools,
      posts: {
        refresh: () => feed.refresh({ force: true }),
        lookup: () => indexLookup(feed.index, scope()),
      },
      queue: () => queue,
    });
  const exports = createExportPort({
    index: feed.index,
    scope,
    refresh: () => feed.refresh({ force: true }),
    api: () => o.session.connection.api(),
    executor: o.executor,
    saver: o.saver,
    downloads: o.downloads,
    progress: (p) => events.emit('exports:didProgress', p),
    log,
  });
  return { feed, current, learning, scopeOf, tools, uploads, posts, deliveries, queue, bulk, exports };
}
