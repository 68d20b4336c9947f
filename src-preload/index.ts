import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CHANNELS, listenerName } from '../src-shared/ipc/contract';
import type { DroppedFile } from '../src-shared/ipc/bridge';

/**
 * Builds `window.postdesk` from the contract: one function per invoke channel, `on<Event>(cb)` per
 * event channel returning its unsubscribe. The page never gets `ipcRenderer`, an event object or a
 * channel name of its own choosing.
 */
type Fn = (...args: never[]) => unknown;

export function buildBridge(): Record<string, Record<string, Fn> | string> {
  const api: Record<string, Record<string, Fn>> = {};
  for (const c of CHANNELS) {
    const domain = (api[c.domain] ??= {});
    const name = c.name;
    if (c.def.kind === 'invoke') {
      domain[c.verb] = (input?: unknown) => ipcRenderer.invoke(name, input);
    } else {
      domain[listenerName(c.verb)] = (listener: (payload: unknown) => void) => {
        const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
        ipcRenderer.on(name, forward);
        return () => void ipcRenderer.removeListener(name, forward);
      };
    }
  }
  // A dropped File's path is only readable here; main then registers it like any other path.
  api.media!.addDropped = async (files: readonly DroppedFile[]) => {
    const paths: string[] = [];
    const skipped: { name: string; reason: string }[] = [];
    for (const f of files) {
      const p = webUtils.getPathForFile(f as unknown as File);
      if (p) paths.push(p);
      else skipped.push({ name: f.name, reason: 'not a file on this computer' });
    }
    if (paths.length === 0) return { ok: true, value: { files: [], skipped } };
    const res = (await ipcRenderer.invoke('media:add', { paths })) as
      { ok: true; value: { files: unknown[]; skipped: unknown[] } } | { ok: false };
    return res.ok ? { ok: true, value: { ...res.value, skipped: [...res.value.skipped, ...skipped] } } : res;
  };
  return { ...api, host: 'electron' };
}

contextBridge.exposeInMainWorld('postdesk', buildBridge());
