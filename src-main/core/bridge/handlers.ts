import { commandLineHandlers } from './command-line';
import { createBulkHandlers } from './bulk-handlers';
import { createConnectionHandlers } from './connection-handlers';
import { executorHandlers, noExecutorHandlers } from './executor-handlers';
import type { BridgeDeps } from './handler-deps';
import type { Handlers } from './handler-types';
import { createInboxHandlers } from './inbox-handlers';
import { createMediaHandlers } from './media-handlers';
import type { BridgeCore } from './ports';
import { createPostGroupHandlers } from './post-groups';
import { createPostHandlers } from './post-handlers';
import { createQueueHandlers } from './queue-handlers';
import { createScheduleHandlers } from './schedule-handlers';
import { createServiceHandlers } from './service-handlers';
import { unsupportedUpdates, updatesHandlers } from './updates-handlers';

/**
 * A handler for every invoke channel, each domain from its own module. Every port a handler needs is required;
 * where a host lacks one of the two optional ones (the executor, the updater), the smaller set for its absence is
 * chosen here, once, rather than asked about in each handler.
 */
export function createBridgeHandlers(core: BridgeCore, deps: BridgeDeps): Handlers {
  const api = () => core.connection.api();
  const now = deps.clock ?? (() => new Date());
  const executor = core.executor ? executorHandlers(core.executor) : noExecutorHandlers();
  return {
    ...createConnectionHandlers(core, deps),
    ...createPostHandlers(core),
    ...createMediaHandlers(core, deps),
    ...createServiceHandlers(core, executor, { version: deps.version, now }),
    postGroups: createPostGroupHandlers(core, deps.events, api, deps.thumbnails),
    compose: deps.compose,
    bulk: createBulkHandlers(core, deps),
    runs: executor.runs,
    executor: executor.executor,
    updates: core.updates ? updatesHandlers(core.updates) : unsupportedUpdates(core.settings, deps.version),
    inbox: createInboxHandlers({
      api,
      posts: core.posts,
      executor: core.executor,
      events: deps.events,
      now,
      queue: core.queue,
    }),
    schedule: createScheduleHandlers({ api, executor: core.executor, uptime: core.uptime, now }),
    exports: { run: (req) => core.exports.run(req) },
    commandLine: commandLineHandlers(deps.commandLine, deps.confirm),
    queue: createQueueHandlers(() => core.queue),
    assistant: deps.assistant,
  };
}
