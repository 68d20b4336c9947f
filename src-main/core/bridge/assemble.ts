import { join } from 'node:path';
import { createProposalWatch, type ProposalWatch } from '../assistant/proposal-watch';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import { readSettings } from '../config/settings';
import { createInbox } from '../inbox/inbox';
import { createInboxWatch, type InboxWatch } from '../inbox/inbox-watch';
import { openUptimeLog } from '../gaps/uptime';
import { followPostChanges } from '../post-state/post-events';
import { withRetryHistory } from '../post-state/retry';
import type { AssembleOptions } from './assemble-options';
import { createAssistantHandlers } from './assistant-handlers';
import { notConnected } from './bridge-fault';
import { openCorePorts, type CorePorts } from './bridge-ports';
import { createComposeHandlers } from './compose-port';
import { oneAtATime } from './confirm';
import type { DeliveryWatch } from './delivery-watch';
import { createBridgeDispatcher, type BridgeDispatcher } from './dispatcher';
import { createBridgeEvents, type BridgeEvents } from './events';
import { createGrantRegistry, type GrantRegistry } from './grants';
import type { Handlers } from './handler-types';
import { createBridgeHandlers } from './handlers';
import { executorRunLookup } from './inbox-handlers';
import { createMediaRegistry, type MediaRegistry } from './media-registry';
import { createRouteInbox, type RouteInbox } from './route-inbox';

export interface AssembledBridge {
  readonly handlers: Handlers;
  readonly dispatcher: BridgeDispatcher;
  readonly events: BridgeEvents;
  readonly media: MediaRegistry;
  /** What the user chose: the web host's upload route and the preload's drop channel mint here. */
  readonly grants: GrantRegistry;
  /** Deep links: `routes.open(route)` sends `app:didOpenRoute` and keeps it for `app:pendingRoute`. */
  readonly routes: RouteInbox;
  /** Failed deliveries; the desktop shell notifies from `onDidFailDelivery`. */
  readonly deliveries: DeliveryWatch;
  /** Drafts of runs waiting in the inbox; the desktop shell counts them in the tray and notifies per run. */
  readonly inbox: InboxWatch;
  /** AI assistants' requests made through `postdesk mcp`; the desktop shell notifies of each. */
  readonly proposals: ProposalWatch;
  /** Stops the timers and the session listener (before the session and the store close). */
  close(): void;
}

/** Everything both hosts need, built the same way: handlers on the session, one event hub, one registry. */
export function assembleBridge(o: AssembleOptions): AssembledBridge {
  const log = o.log ?? silentLogger;
  const events = o.events ?? createBridgeEvents(log);
  const media = createMediaRegistry({ previewUrl: o.previewUrl });
  const grants = createGrantRegistry();
  const ports = openCorePorts(o, events, log, (ids) => forwardPostChanges.retell(ids));
  const { feed, current, scopeOf, posts, deliveries } = ports;
  const forwardFailures = deliveries.onDidFailDelivery((d) => events.emit('posts:didFailDelivery', d));
  const forwardUnconfirmed = deliveries.onDidNotConfirm((d) => events.emit('watch:didNotConfirm', d));
  const routes = createRouteInbox(events);
  const drafts = createInbox({
    client: async () => current() ?? Promise.reject(notConnected()),
    runs: executorRunLookup(o.executor),
  });
  const inbox = createInboxWatch({
    store: o.store,
    list: async () => (current() ? drafts.list() : null),
    scope: () => scopeOf(current()),
    ...(o.deliveryWatchMs ? { intervalMs: o.deliveryWatchMs } : {}),
    log,
  });
  // Every change to posts, whoever made it, is told once by the index that took it (src-main/core/post-state).
  const forwardPostChanges = followPostChanges(
    feed.index,
    () => scopeOf(current()),
    events,
    (d) => withRetryHistory(d, posts.retried()),
  );
  const forwardCount = inbox.onDidChangeCount((total) => events.emit('inbox:didChange', { total }));
  const followRuns = followCompletedRuns(events, ports, inbox, log);
  const handlers = createBridgeHandlers(
    {
      connection: {
        ...o.session.connection,
        api: async () => ports.learning(await o.session.connection.api()),
      },
      secrets: o.session.secrets,
      settings: o.session.settings,
      uploads: ports.uploads,
      bulk: ports.bulk,
      executor: o.executor,
      posts,
      updates: o.updates,
      deliveries,
      index: feed,
      uptime: openUptimeLog(o.store),
      queue: ports.queue,
      exports: ports.exports,
    },
    {
      host: o.host,
      version: o.version,
      events,
      media,
      grants,
      routes,
      tools: ports.tools,
      thumbnails: o.thumbnails,
      compose: createComposeHandlers({
        store: o.store,
        media,
        scope: () => current() && scopeOf(current()),
        mediaScope: () => current()?.baseUrl ?? null,
      }),
      convertDir: join(o.stagingDir, 'converted'),
      assistant: createAssistantHandlers({
        store: o.store,
        access: () => o.session.mcpAccess(),
        policies: () => readSettings(o.store).assistantToolPolicies,
        version: o.version,
        events,
      }),
      ...(o.confirm ? { confirm: oneAtATime(o.confirm) } : {}),
      ...(o.picker ? { picker: o.picker } : {}),
      ...(o.commandLine ? { commandLine: o.commandLine } : {}),
      ...(o.openExternal ? { openExternal: o.openExternal } : {}),
    },
  );
  const arrivals = followArrivals(o, ports, inbox, log);

  // `postdesk mcp` writes proposals from its own process: the page hears of them within a few seconds.
  const proposals = createProposalWatch({ store: o.store, log });
  proposals.onDidChangeWaiting((waiting) => events.emit('assistant:didChange', { waiting }));
  return {
    handlers,
    dispatcher: createBridgeDispatcher(handlers, events, log),
    events,
    media,
    grants,
    routes,
    deliveries,
    inbox,
    proposals,
    close() {
      proposals.dispose();
      arrivals.dispose();
      forwardCount.dispose();
      forwardPostChanges.dispose();
      followRuns.dispose();
      inbox.dispose();
      forwardFailures.dispose();
      forwardUnconfirmed.dispose();
      deliveries.dispose();
      posts.close();
    },
  };
}

/** A run that completed may have left drafts; a person who acted changed the count. Not a page: never "delivered". */
function followCompletedRuns(events: BridgeEvents, ports: CorePorts, inbox: InboxWatch, log: Logger) {
  return events.subscribe((channel, payload) => {
    if (channel === 'runs:didChange' && (payload as { run: { state: string } }).run.state === 'completed') {
      // A run published through the executor's own client: what it made reaches the index by a refresh.
      void ports.feed
        .refresh({ force: true })
        .catch((e: unknown) => log.warn('refreshing posts after a run failed', { error: errorText(e) }));
      void inbox
        .checkNow()
        .catch((e: unknown) => log.warn('checking the inbox failed', { error: errorText(e) }));
    }
    if (channel === 'inbox:didChange') inbox.setCount((payload as { total: number }).total);
    return false;
  });
}

/**
 * On start and after each switch of connection: finish what an earlier session left (queued posts, interrupted
 * uploads), then look for failures. In the background: a host never waits on it.
 */
function followArrivals(o: AssembleOptions, ports: CorePorts, inbox: InboxWatch, log: Logger) {
  const { posts, uploads, deliveries } = ports;
  let watching: { dispose(): void } | null = null;
  let watchingInbox: { dispose(): void } | null = null;
  const arrive = (client: unknown): void => {
    watching?.dispose();
    watching = null;
    watchingInbox?.dispose();
    watchingInbox = null;
    if (!client) return;
    void posts.replay().catch((e: unknown) => log.warn('outbox replay failed', { error: errorText(e) }));
    const track = o.trackUploads ?? (<T>(_name: string, work: () => Promise<T>) => work());
    void track('resuming interrupted uploads', () => uploads.resume())
      .then((r) => {
        if (r.finished + r.failed > 0)
          log.info('resumed uploads', { finished: r.finished, failed: r.failed });
      })
      .catch((e: unknown) => log.warn('resuming uploads failed', { error: errorText(e) }));
    if (o.deliveryWatchMs !== false) {
      watching = deliveries.start();
      watchingInbox = inbox.start();
    } else
      void deliveries
        .checkNow()
        .catch((e: unknown) => log.warn('checking for failed deliveries failed', { error: errorText(e) }));
  };
  const unsubscribe = o.session.onDidSwitch(arrive);
  arrive(ports.current());
  return {
    dispose() {
      unsubscribe();
      watching?.dispose();
      watchingInbox?.dispose();
    },
  };
}
