import { join } from 'node:path';
import type { HostKind } from '../../../src-shared/ipc/common';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { Store } from '../store/store';
import { createBridgeDispatcher, type BridgeDispatcher } from './dispatcher';
import { createBridgeEvents, type BridgeEvents } from './events';
import type { CommandLinePort } from './command-line';
import type { Handlers } from './handler-types';
import { createBridgeHandlers } from './handlers';
import { createMediaRegistry, type MediaRegistry } from './media-registry';
import type { ApiClient } from '../api/client';
import type { BulkPort, ExecutorPort, FilePicker, UpdatesPort } from './ports';
import { createGrantRegistry, type GrantRegistry } from './grants';
import { oneAtATime, type ConfirmPort } from './confirm';
import type { BridgeSession, DownloadShelf, ThumbnailPort } from './host-ports';
import { createUploadPort } from './uploads';
import { createBulkPort } from './bulk-port';
import { createPostOutboxPort } from './post-outbox';
import { createQueuePort } from './queue-handlers';
import { createDeliveryWatch, type DeliveryWatch } from './delivery-watch';
import { createRouteInbox, type RouteInbox } from './route-inbox';
import { createComposeHandlers } from './compose-port';
import { executorRunLookup } from './inbox-handlers';
import { notConnected } from './bridge-fault';
import { createInbox } from '../inbox/inbox';
import { createInboxWatch, type InboxWatch } from '../inbox/inbox-watch';
import { openUptimeLog } from '../gaps/uptime';
import { createDeliveryFeed } from '../deliveries/delivery-feed';
import { readSettings } from '../config/settings';
import { createSettingsTools, toolSettingsOf } from '../media/tools';
import { createExportPort, type FileSaver } from './export-port';
import { indexLookup } from '../bulk/reimport';
import { createAssistantHandlers } from './assistant-handlers';
import { createProposalWatch, type ProposalWatch } from '../assistant/proposal-watch';
import { followPostChanges } from '../post-state/post-events';
import { withRetryHistory } from '../post-state/retry';

export interface AssembleOptions {
  readonly host: HostKind;
  readonly version: string;
  readonly session: BridgeSession;
  readonly store: Store;
  readonly previewUrl: (id: string) => string;
  /** Pictures of posts for the rows (src-main/host/thumbnails.ts). */
  readonly thumbnails: ThumbnailPort;
  /** Where text the page sends (a CSV) is written for the import; the host removes it on exit. */
  readonly stagingDir: string;
  readonly bulk?: BulkPort | undefined;
  readonly executor?: ExecutorPort | undefined;
  readonly openExternal?: ((url: string) => Promise<void>) | undefined;
  readonly events?: BridgeEvents;
  /** The desktop updater; absent, the `updates` channels answer phase `unsupported`. */
  readonly updates?: UpdatesPort | undefined;
  /** How often failed deliveries are polled (default 2 minutes); `false` turns the timer off. */
  readonly deliveryWatchMs?: number | false;
  /** How long `posts:create` waits for the service's confirmation before answering "queued". */
  readonly createSettleMs?: number;
  /**
   * Asks the user outside the page before a change to what Postdesk runs or publishes (the desktop app's
   * dialog, `postdesk web`'s terminal); absent, such changes are refused.
   */
  readonly confirm?: ConfirmPort | undefined;
  /** Main's own open dialog behind `files:pick` (the desktop app). */
  readonly picker?: FilePicker | undefined;
  /** Main's own save dialog behind `exports:run` (the desktop app). */
  readonly saver?: FileSaver | undefined;
  /** Without a save dialog (`postdesk web`): exports become one-time browser downloads. */
  readonly downloads?: DownloadShelf | undefined;
  /** The desktop app's `postdesk` launcher; absent on `postdesk web`. */
  readonly commandLine?: CommandLinePort | undefined;
  /** Where background work that failed (replay, upload resume, polls, listeners) is reported; it never fails the host. */
  readonly log?: Logger;
  /**
   * Runs the resumption of interrupted uploads as tracked work, so the desktop's quit and update wait
   * for it as for any upload (its UploadTracker); a refusal (the app is quitting) skips the resume.
   */
  readonly trackUploads?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

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
  // The Settings screen may change the ffmpeg/ffprobe paths at any time: read them at each use.
  const tools = createSettingsTools(() => toolSettingsOf(readSettings(o.store)));
  const uploads = createUploadPort({ store: o.store, client: current, tools });
  const posts = createPostOutboxPort({
    store: o.store,
    client: current,
    scope: (client) => scopeOf(client),
    ...(o.createSettleMs !== undefined ? { settleMs: o.createSettleMs } : {}),
    onDidChangeQueued: (queued) => events.emit('posts:didChangeQueued', { posts: [...queued] }),
    onDidRetry: (entry) => forwardPostChanges.retell(entry.result?.socialPostIds ?? []),
    log,
  });
  const deliveries = createDeliveryWatch({
    store: o.store,
    client: current,
    scope: () => scopeOf(current()),
    ...(o.deliveryWatchMs ? { intervalMs: o.deliveryWatchMs } : {}),
    confirmGraceMs: () => readSettings(o.store).deliveryConfirmMinutes * 60_000,
    log,
  });
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
    (d) => withRetryHistory(d, posts.retried?.() ?? new Map()),
  );
  const forwardCount = inbox.onDidChangeCount((total) => events.emit('inbox:didChange', { total }));
  // A run that completed may have left drafts; a person who acted changed the count. Not a page: never "delivered".
  const followRuns = events.subscribe((channel, payload) => {
    if (channel === 'runs:didChange' && (payload as { run: { state: string } }).run.state === 'completed') {
      // A run published through the executor's own client: what it made reaches the index by a refresh.
      void feed
        .refresh({ force: true })
        .catch((e: unknown) => log.warn('refreshing posts after a run failed', { error: errorText(e) }));
      void inbox
        .checkNow()
        .catch((e: unknown) => log.warn('checking the inbox failed', { error: errorText(e) }));
    }
    if (channel === 'inbox:didChange') inbox.setCount((payload as { total: number }).total);
    return false;
  });
  const queue = createQueuePort({
    store: o.store,
    feed,
    client: current,
    scope: () => scopeOf(current()),
    posts,
  });
  const handlers = createBridgeHandlers(
    {
      connection: { ...o.session.connection, api: async () => learning(await o.session.connection.api()) },
      secrets: o.session.secrets,
      settings: o.session.settings,
      uploads,
      bulk:
        o.bulk ??
        createBulkPort({
          store: o.store,
          client: current,
          scope: () => scopeOf(current()),
          stagingDir: o.stagingDir,
          tools,
          posts: {
            refresh: () => feed.refresh({ force: true }),
            lookup: () => indexLookup(feed.index, scopeOf(current())),
          },
          queue: () => queue,
        }),
      executor: o.executor,
      posts,
      updates: o.updates,
      deliveries,
      index: feed,
      uptime: openUptimeLog(o.store),
      // One queue: its placements run one at a time, whichever screen asked.
      queue,
      exports: createExportPort({
        index: feed.index,
        scope: () => scopeOf(current()),
        refresh: () => feed.refresh({ force: true }),
        api: () => o.session.connection.api(),
        executor: o.executor,
        saver: o.saver,
        downloads: o.downloads,
        progress: (p) => events.emit('exports:didProgress', p),
        log,
      }),
    },
    {
      host: o.host,
      version: o.version,
      events,
      media,
      grants,
      routes,
      tools,
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

  // On start and after each switch of connection: finish what an earlier session left (queued posts,
  // interrupted uploads), then look for failures. In the background: a host never waits on it.
  let watching: { dispose(): void } | null = null;
  let watchingInbox: { dispose(): void } | null = null;
  const arrive = (client: ApiClient | null): void => {
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
  arrive(current());

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
      unsubscribe();
      watching?.dispose();
      watchingInbox?.dispose();
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
