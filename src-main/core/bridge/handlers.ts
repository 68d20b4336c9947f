import { reasonInWords } from '../bulk/service-reason';
import { CALENDAR_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { LIMITS } from '../../../src-shared/api/limits';
import type { HostKind } from '../../../src-shared/ipc/common';
import type { ConnectionStatus } from '../../../src-shared/ipc/connection';
import type { MediaCheck } from '../../../src-shared/ipc/media';
import type { AutomationView } from '../../../src-shared/ipc/automations';
import { NOT_CONFIRMED_CODE, type SettingsPatch } from '../../../src-shared/ipc/settings';
import { calendarTimeOf } from '../../../src-shared/ipc/calendar';
import type { Automation } from '../../../src-shared/api/automations';
import type { UpdateState } from '../../../src-shared/ipc/updates';
import { randomUUID } from 'node:crypto';
import { basename, extname, join } from 'node:path';
import { checkFile } from '../media/check';
import { CannotConvertError, convertToMp4 } from '../media/convert';
import { ToolFailedError, ToolNotFoundError, defaultTools, reportTools } from '../media/tools';
import type { Tools } from '../media/tools';
import { nextOccurrence } from '../executor/occurrences';
import { createAutomationEditing } from './automation-editing';
import { BridgeFault, UNEXPECTED, forPeople, toBridgeError, unavailable } from './bridge-fault';
import type { ListFreshness } from '../../../src-shared/ipc/posts';
import { isImportFileName, notAnImportFile } from '../../../src-shared/ipc/bulk';
import type { BridgeEvents } from './events';
import type { Handlers } from './handler-types';
import type { MediaRegistry } from './media-registry';
import type { BridgeCore, FilePicker } from './ports';
import type { GrantRegistry } from './grants';
import { NOT_CONFIRMED, guardedChange, type ConfirmPort } from './confirm';
import { EXTERNAL_HOSTS, hostOfHttps, isAllowedExternal } from './external-links';
import type { RouteInbox } from './route-inbox';
import type { ThumbnailPort } from './host-ports';
import { createPostGroupHandlers } from './post-groups';
import { changeOnePost } from './post-change';
import { composeUnavailable } from './compose-port';
import { createInboxHandlers } from './inbox-handlers';
import { createScheduleHandlers } from './schedule-handlers';
import { commandLineHandlers, type CommandLinePort } from './command-line';
import { createQueueHandlers } from './queue-handlers';
import { ensurePrivateDir } from '../files';

export interface BridgeDeps {
  readonly host: HostKind;
  readonly version: string;
  readonly platform?: string;
  readonly events: BridgeEvents;
  readonly media: MediaRegistry;
  /** What the user chose; every channel that reads a file takes one of its ids, never a path. */
  readonly grants: GrantRegistry;
  /** Pictures of posts for the rows, fetched by the host (src-main/host/thumbnails.ts). */
  readonly thumbnails: ThumbnailPort;
  /** Asks the user, outside the page, before a change to what Postdesk runs; absent: such changes are refused. */
  readonly confirm?: ConfirmPort | undefined;
  /** Main's own open dialog (`files:pick`); absent: `unavailable`. */
  readonly picker?: FilePicker | undefined;
  /** Opens an already allowlisted https URL in the user's browser; absent: links are not opened. */
  readonly openExternal?: (url: string) => Promise<void>;
  readonly externalHosts?: readonly string[];
  readonly clock?: () => Date;
  /** Deep links waiting for a page (`app:pendingRoute`); absent: there is never one. */
  readonly routes?: RouteInbox;
  /** ffmpeg/ffprobe for `media:inspect` (the settings' paths); default: bundled, then PATH. */
  readonly tools?: Tools;
  /** A private folder for converted copies (`media:convert`); absent: converting is not available. */
  readonly convertDir?: string;
  /** Drafts and the media library (`compose-port.ts`); absent: `unavailable`. */
  readonly compose?: Handlers['compose'];
  /** The desktop app's `postdesk` launcher (`commandLine:*`); absent: offered by the desktop app only. */
  readonly commandLine?: CommandLinePort | undefined;
  /** AI assistants' proposals and activity (`assistant-handlers.ts`); absent: `unavailable`. */
  readonly assistant?: Handlers['assistant'] | undefined;
}

/** Without a store of proposals (tests of other channels), every `assistant` channel says so. */
function assistantUnavailable(): Handlers['assistant'] {
  const no = async (): Promise<never> => {
    throw unavailable('Connecting an AI assistant');
  };
  return { proposals: no, approve: no, reject: no, activity: no, tools: no, connection: no, test: no };
}

const whenOf = calendarTimeOf;

export function createBridgeHandlers(core: BridgeCore, deps: BridgeDeps): Handlers {
  const { events } = deps;
  const api = () => core.connection.api();
  const now = deps.clock ?? (() => new Date());
  const need = <T>(port: T | undefined, what: string): T => {
    if (!port) throw unavailable(what);
    return port;
  };
  const registered = (id: string) => {
    const f = deps.media.get(id);
    if (!f) throw new BridgeFault('not_found', 'That file is no longer added; add it again.');
    return f;
  };
  /** `postdesk web` does not update itself: the desktop app does. */
  const unsupportedUpdates = async (): Promise<UpdateState> => ({
    phase: 'unsupported',
    channel: (await core.settings.get()).update_channel,
    currentVersion: deps.version,
    availableVersion: null,
    progress: null,
    waitingFor: null,
    restartRequested: false,
    error: null,
    lastCheckedAt: null,
  });
  /** What the index says of how current its answer is, for the screen to show beside the list. */
  const freshness = (): { freshness?: ListFreshness } => {
    const f = core.index?.freshness?.();
    if (!f) return {};
    return {
      freshness: {
        refreshed_at: f.refreshedAt === null ? null : new Date(f.refreshedAt).toISOString(),
        refreshing: f.refreshing,
        error: f.error ? toBridgeError(f.error) : null,
      },
    };
  };
  const editing = createAutomationEditing({
    api,
    status: () => core.connection.status(),
    version: deps.version,
  });
  const automationView = (a: Automation, after: Date): AutomationView => {
    let next: string | null = null;
    if (a.status === 'active') {
      try {
        next = core.executor?.nextOccurrence
          ? core.executor.nextOccurrence(a)
          : (nextOccurrence(a.schedule, after)?.toISOString() ?? null);
      } catch {
        next = null; // an invalid schedule has no next occurrence; the list still loads
      }
    }
    return { ...a, next_occurrence: next };
  };
  /**
   * The one confirmation, outside the page, of a change to what runs or where requests go: `settings:update`
   * and Connect's new address both ask here, and go on only on the person's yes.
   */
  const confirmGuarded = async (patch: SettingsPatch): Promise<void> => {
    const change = guardedChange(await core.settings.get(), patch);
    if (!change) return;
    const answer = deps.confirm ? await deps.confirm.confirm(change) : null;
    if (!answer?.confirmed) {
      const reason = answer?.reason ?? NOT_CONFIRMED;
      throw new BridgeFault('forbidden', reason, undefined, { code: NOT_CONFIRMED_CODE });
    }
  };
  /**
   * The status with the service's clock offset (src-shared/ipc/connection.ts), learned from its answers; when none
   * has said its time yet, one cheap read asks (a failure leaves the offset out: the page uses its own clock).
   */
  const withClock = async (status: ConnectionStatus): Promise<ConnectionStatus> => {
    if (status.state !== 'connected') return status;
    try {
      const client = await api();
      const clock = client.clock;
      if (!clock) return status;
      if (!clock.known()) await client.listAccounts().catch(() => undefined);
      return clock.known()
        ? { ...status, clock_offset_ms: Math.round(clock.now().getTime() - Date.now()) }
        : status;
    } catch {
      return status;
    }
  };
  const connectionChanged = async (status: ConnectionStatus): Promise<ConnectionStatus> => {
    const told = await withClock(status);
    events.emit('connection:didChange', told);
    return told;
  };

  return {
    app: {
      info: async () => ({
        host: deps.host,
        version: deps.version,
        platform: deps.platform ?? process.platform,
        file_dialog: Boolean(deps.picker),
      }),
      openExternal: async ({ url }) => {
        const { base_url } = await core.connection.status();
        const hosts = [...(deps.externalHosts ?? EXTERNAL_HOSTS), ...[hostOfHttps(base_url)].filter(Boolean)];
        if (!deps.openExternal || !isAllowedExternal(url, hosts as string[])) return { opened: false };
        await deps.openExternal(url);
        return { opened: true };
      },
      pendingRoute: async () => ({ route: deps.routes?.take() ?? null }),
    },
    connection: {
      status: async () => withClock(await core.connection.status()),
      connect: async ({ base_url, api_key }) => {
        // A new service address is confirmed like one typed into Settings, before anything is sent there.
        if (!(await core.connection.isKnownAddress(base_url))) await confirmGuarded({ base_url });
        return connectionChanged(await core.connection.connect(base_url, api_key));
      },
      useOffline: async () => connectionChanged(await core.connection.useOffline()),
      disconnect: async () => connectionChanged(await core.connection.disconnect()),
    },
    accounts: {
      list: async () => {
        const res = await (await api()).listAccounts();
        const accounts = [...res.accounts].sort(
          (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
        );
        return { ...res, accounts };
      },
    },
    posts: {
      list: async ({ offset, refresh: _refresh, ...query }) => {
        const client = await api(); // not connected: say so rather than answer from the index
        if (core.index)
          return { ...(await core.index.list({ ...query, offset, refresh: _refresh })), ...freshness() };
        // Without the index: one service page, which has no offset (nor a post filter: done here).
        const { limit, post_id, ...filter } = query;
        const page = offset
          ? { posts: [] }
          : await client.listPosts({
              ...filter,
              limit: Math.min(limit ?? LIMITS.pageSizeDefault.posts, LIMITS.pageSizeMax),
            });
        const res = post_id ? { ...page, posts: page.posts.filter((d) => d.post_id === post_id) } : page;
        return { ...res, offset: offset ?? 0, total: res.posts.length };
      },
      create: async (body) => {
        // Through the outbox when wired (both hosts): in the store before it is sent, never sent twice.
        return core.posts ? await core.posts.create(body) : await (await api()).createPost(body);
      },
      // Through the outbox's change record: a lost answer is read back, never reported as a refusal nor applied
      // twice. The index takes each answer and tells the pages what changed (src-main/core/post-state).
      update: async (body) => {
        const client = await api();
        const res = await changeOnePost(core.posts, { op: 'update', body }, () => client.updatePost(body));
        return res ?? { post_id: body.id, social_posts: [] };
      },
      delete: async (body) => {
        const client = await api();
        await changeOnePost(core.posts, { op: 'delete', id: body.id }, async () => {
          await client.deletePost(body);
          return null;
        });
        return { success: true };
      },
      checkFailures: async () => {
        await api(); // not connected: say so rather than answer "no failures"
        return { failed: [...(await need(core.deliveries, 'Watching deliveries').checkNow())] };
      },
      queued: async () => ({ posts: core.posts ? [...core.posts.queued()] : [] }),
      decideQueued: async ({ entry_id, decision }) => ({
        ok: await need(core.posts, 'The outbox').decide(entry_id, decision),
      }),
    },
    postGroups: createPostGroupHandlers(core, events, api, deps.thumbnails),
    calendar: {
      range: async ({ start, end, platform, statuses }) => {
        const client = await api();
        if (core.index) {
          const deliveries = await core.index.range({
            start,
            end,
            platform,
            statuses: statuses ?? CALENDAR_STATUSES,
          });
          return { deliveries: [...deliveries], ...freshness() };
        }
        const from = Date.parse(start);
        const to = Date.parse(end);
        const lists = await Promise.all(
          (statuses ?? CALENDAR_STATUSES).map((status) =>
            client.listPosts({ status, limit: LIMITS.pageSizeMax, ...(platform ? { platform } : {}) }),
          ),
        );
        const seen = new Set<string>();
        const deliveries = lists
          .flatMap((l) => l.posts)
          .filter((d) => {
            const when = whenOf(d);
            if (!when || seen.has(d.id)) return false;
            seen.add(d.id);
            const t = Date.parse(when);
            return t >= from && t < to;
          })
          .sort((a, b) => Date.parse(whenOf(a) ?? '') - Date.parse(whenOf(b) ?? ''));
        return { deliveries };
      },
      // A drag is an update like any other: recorded as the time it sets, a lost answer read back.
      reschedule: async ({ id, scheduled_at }) => {
        const client = await api();
        const body = { id, scheduled_at };
        const res = await changeOnePost(core.posts, { op: 'update', body }, () => client.updatePost(body));
        return res ?? { post_id: id, social_posts: [] };
      },
    },
    compose: deps.compose ?? composeUnavailable(),
    files: {
      pick: async (input) => {
        const chosen = await need(deps.picker, 'Choosing files in a dialog').pick(input);
        return deps.grants.mint(
          chosen.map((path) => ({ path })),
          'dialog',
        );
      },
    },
    media: {
      add: async ({ grants }) => {
        const granted = [];
        for (const id of grants) granted.push(await deps.grants.use(id));
        return deps.media.addFiles(granted.map((g) => ({ path: g.path, name: g.name })));
      },
      inspect: async ({ id }) => {
        const f = registered(id);
        const check = await checkFile(f.realPath, { purpose: 'upload', tools: deps.tools });
        const checks: MediaCheck[] = check.problems.map((p) => ({
          level: p.severity,
          code: p.rule,
          message: forPeople(p.message),
          ...(p.fix ? { fix: p.fix.kind } : {}),
        }));
        const v = check.probe?.video ?? null;
        return {
          id,
          ok: check.ok,
          content_type: check.contentType,
          checks,
          width: v?.displayWidth ?? null,
          height: v?.displayHeight ?? null,
          duration_seconds: check.probe?.durationSec ?? null,
        };
      },
      upload: async ({ id }) => {
        const f = registered(id);
        if (!f.contentType) {
          throw new BridgeFault(
            'invalid_input',
            `${f.name} cannot be uploaded as it is: only JPEG, PNG or WebP images and MP4 video are accepted.`,
          );
        }
        const uploads = need(core.uploads, 'Uploading media');
        try {
          const done = await uploads.upload(
            { path: f.realPath, contentType: f.contentType, size: f.size },
            {
              hash: (bytes_done, bytes_total) =>
                events.emit('media:didHashProgress', { id, bytes_done, bytes_total }),
              upload: (phase, bytes_sent, bytes_total) =>
                events.emit('media:didUploadProgress', { id, phase, bytes_sent, bytes_total }),
            },
          );
          events.emit('media:didUploadProgress', {
            id,
            phase: 'done',
            bytes_sent: f.size,
            bytes_total: f.size,
          });
          return { id, ...done };
        } catch (e) {
          events.emit('media:didUploadProgress', { id, phase: 'failed', bytes_sent: 0, bytes_total: f.size });
          throw e;
        }
      },
      remove: async ({ id }) => ({ removed: deps.media.remove(id) }),
      tools: async () => reportTools(deps.tools ?? defaultTools()),
      convert: async ({ id }) => {
        const f = registered(id);
        const dir = join(need(deps.convertDir, 'Converting media'), randomUUID());
        await ensurePrivateDir(dir);
        const name = `${basename(f.name, extname(f.name)) || 'video'}.mp4`;
        try {
          const done = await convertToMp4(f.realPath, {
            out: join(dir, name),
            // An MP4 that is only too large is compressed to fit; anything else becomes an MP4 as it is.
            ...(f.contentType === 'video/mp4' ? { maxBytes: LIMITS.mp4UploadBytes } : {}),
            tools: deps.tools,
            onProgress: (p) => events.emit('media:didConvertProgress', { id, percent: p.percent }),
          });
          const added = await deps.media.addFiles([{ path: done.output, name }]);
          const file = added.files[0];
          if (!file) throw new BridgeFault('internal', UNEXPECTED);
          return file;
        } catch (e) {
          if (e instanceof CannotConvertError)
            throw new BridgeFault('invalid_input', `${f.name}: ${e.message}`);
          if (e instanceof ToolNotFoundError)
            throw new BridgeFault(
              'unavailable',
              'Converting needs ffmpeg, which is not installed here. Install it, or choose the program in Settings, under Media tools.',
            );
          if (e instanceof ToolFailedError)
            throw new BridgeFault(
              'invalid_input',
              `${f.name} could not be converted: ffmpeg cannot read it.`,
            );
          throw e;
        }
      },
    },
    bulk: {
      plan: async ({ source, queue }) => {
        const bulk = need(core.bulk, 'Bulk import');
        if (!('grant' in source)) return bulk.plan(source, { queue });
        const g = await deps.grants.use(source.grant);
        if (g.folder)
          throw new BridgeFault('invalid_input', `${g.name} is a folder: choose a CSV or JSON file.`);
        if (!isImportFileName(g.name)) throw new BridgeFault('invalid_input', notAnImportFile(g.name));
        // Only a file chosen on this computer may name other files on it; an upload came from a page.
        return bulk.plan({ file: g.path, name: g.name, localMedia: g.source !== 'upload' }, { queue });
      },
      submit: async ({ plan_id }) =>
        need(core.bulk, 'Bulk import').submit(plan_id, (p) => events.emit('bulk:didProgress', p)),
      history: async () => ({ batches: [...(await need(core.bulk, 'Bulk import').history())] }),
      inspect: async (query) => {
        // Each failed item's reason in words (the column and which entry), never the service's field paths.
        const res = await (await api()).bulkInspect(query);
        return {
          ...res,
          items: res.items.map((it) => (it.error ? { ...it, error: reasonInWords(it.error) } : it)),
        };
      },
      resubmitFailed: async ({ batch_id }) =>
        need(core.bulk, 'Bulk import').resubmitFailed(batch_id, (p) => events.emit('bulk:didProgress', p)),
    },
    articles: {
      list: async (query) => (await api()).listArticles(query),
      create: async (body) => (await api()).createArticle(body),
      delete: async (body) => (await api()).deleteArticle(body),
    },
    analytics: {
      overview: async (query) => (await api()).analytics(query),
      post: async ({ post_id }) => (await api()).analytics({ post_id }),
    },
    skills: {
      list: async () => (await api()).listSkills(),
      get: async ({ id, version }) => (await api()).getSkill(id, version ? { version } : undefined),
    },
    automations: {
      list: async () => {
        const res = await (await api()).listAutomations();
        const after = now();
        const automations = res.automations.map((a) => automationView(a, after));
        return { automations, can_edit: await editing.available() };
      },
      runNow: async ({ id }) => ({ run: await need(core.executor, 'The executor').runNow(id) }),
      create: async (input) => ({ automation: automationView(await editing.create(input), now()) }),
      update: async (input) => ({ automation: automationView(await editing.update(input), now()) }),
      pause: async ({ id }) => ({ automation: automationView(await editing.pause(id), now()) }),
      resume: async ({ id }) => ({ automation: automationView(await editing.resume(id), now()) }),
      remove: async ({ id }) => ({ automation: automationView(await editing.remove(id), now()) }),
    },
    runs: {
      list: async (filter) => ({ runs: [...(await need(core.executor, 'The executor').listRuns(filter))] }),
      get: async ({ id }) => {
        const detail = await need(core.executor, 'The executor').getRun(id);
        if (!detail) throw new BridgeFault('not_found', 'No such run.');
        return detail;
      },
    },
    executor: {
      status: () => need(core.executor, 'The executor').status(),
      pause: () => need(core.executor, 'The executor').pause(),
      resume: () => need(core.executor, 'The executor').resume(),
      syncNow: () => need(core.executor, 'The executor').syncNow(),
      metrics: async () => (await need(core.executor, 'The executor').metrics?.()) ?? null,
    },
    settings: {
      get: () => core.settings.get(),
      update: async (patch) => {
        await confirmGuarded(patch);
        const view = await core.settings.update(patch);
        events.emit('settings:didChange', view);
        return view;
      },
    },
    updates: {
      state: async () => core.updates?.state() ?? (await unsupportedUpdates()),
      check: async () => (core.updates ? core.updates.check() : unsupportedUpdates()),
      restartNow: async () => core.updates?.restartNow() ?? (await unsupportedUpdates()),
    },
    inbox: createInboxHandlers({
      api,
      posts: core.posts,
      executor: core.executor,
      events,
      now,
      queue: core.queue ? () => need(core.queue, 'The posting queue') : undefined,
    }),
    schedule: createScheduleHandlers({ api, executor: core.executor, uptime: core.uptime, now }),
    watch: {
      unconfirmed: async () => {
        const watch = need(core.deliveries, 'Watching deliveries');
        if ((await core.connection.status()).state === 'connected') await watch.checkNow().catch(() => []);
        return { deliveries: [...(watch.unconfirmed?.() ?? [])] };
      },
    },
    exports: { run: (req) => need(core.exports, 'Exporting').run(req) },
    commandLine: commandLineHandlers(deps.commandLine, deps.confirm),
    queue: createQueueHandlers(() => need(core.queue, 'The posting queue')),
    assistant: deps.assistant ?? assistantUnavailable(),
    secrets: {
      set: async ({ api_key }) => {
        await core.secrets.set(api_key);
        connectionChanged(await core.connection.status());
        return { stored: true };
      },
      has: () => core.secrets.has(),
      clear: async () => {
        await core.secrets.clear();
        connectionChanged(await core.connection.status());
        return { cleared: true };
      },
    },
  };
}
