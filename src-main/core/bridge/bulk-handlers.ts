import { isImportFileName, notAnImportFile } from '../../../src-shared/ipc/bulk';
import { reasonInWords } from '../bulk/service-reason';
import { BridgeFault } from './bridge-fault';
import type { BridgeDeps } from './handler-deps';
import type { Handlers } from './handler-types';
import type { BridgeCore } from './ports';

/** `bulk`: a plan read from text the page sent or a granted file, then submitted with progress as events. */
export function createBulkHandlers(
  core: Pick<BridgeCore, 'connection' | 'bulk'>,
  deps: Pick<BridgeDeps, 'events' | 'grants'>,
): Handlers['bulk'] {
  const { events } = deps;
  const api = () => core.connection.api();
  return {
    plan: async ({ source, queue }) => {
      const bulk = core.bulk;
      if (!('grant' in source)) return bulk.plan(source, { queue });
      const g = await deps.grants.use(source.grant);
      if (g.folder)
        throw new BridgeFault('invalid_input', `${g.name} is a folder: choose a CSV or JSON file.`);
      if (!isImportFileName(g.name)) throw new BridgeFault('invalid_input', notAnImportFile(g.name));
      // Only a file chosen on this computer may name other files on it; an upload came from a page.
      return bulk.plan({ file: g.path, name: g.name, localMedia: g.source !== 'upload' }, { queue });
    },
    submit: async ({ plan_id }) => core.bulk.submit(plan_id, (p) => events.emit('bulk:didProgress', p)),
    history: async () => ({ batches: [...(await core.bulk.history())] }),
    inspect: async (query) => {
      // Each failed item's reason in words (the column and which entry), never the service's field paths.
      const res = await (await api()).bulkInspect(query);
      return {
        ...res,
        items: res.items.map((it) => (it.error ? { ...it, error: reasonInWords(it.error) } : it)),
      };
    },
    resubmitFailed: async ({ batch_id }) =>
      core.bulk.resubmitFailed(batch_id, (p) => events.emit('bulk:didProgress', p)),
  };
}
