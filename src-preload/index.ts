import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CHANNELS, listenerName } from '../src-shared/ipc/contract';
import { addDroppedVia, type DroppedFile } from '../src-shared/ipc/bridge';
import type { BridgeResult } from '../src-shared/ipc/bridge-error';
import { DROP_GRANT_CHANNEL, type GrantedFiles } from '../src-shared/ipc/files';
import type { MediaAddResult } from '../src-shared/ipc/media';

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
  // A dropped or picked File's path is readable only here, and the page can neither make up a File with a
  // path nor reach this channel: main grants what the user really chose, and the page gets the ids.
  const grant = async (files: readonly DroppedFile[]): Promise<BridgeResult<GrantedFiles>> => {
    const items: { path: string; name: string }[] = [];
    const skipped: { name: string; reason: string }[] = [];
    for (const f of files) {
      let path = '';
      try {
        path = webUtils.getPathForFile(f as unknown as File);
      } catch {
        // not a File the browser made: no path
      }
      if (path) items.push({ path, name: String(f.name).slice(0, 300) });
      else skipped.push({ name: String(f.name), reason: 'not a file on this computer' });
    }
    if (items.length === 0) return { ok: true, value: { files: [], skipped } };
    const res = (await ipcRenderer.invoke(DROP_GRANT_CHANNEL, { items })) as BridgeResult<GrantedFiles>;
    return res.ok ? { ok: true, value: { ...res.value, skipped: [...res.value.skipped, ...skipped] } } : res;
  };
  api.files!.grant = grant;
  api.media!.addDropped = (files: readonly DroppedFile[]) =>
    addDroppedVia(
      grant,
      (input) => ipcRenderer.invoke('media:add', input) as Promise<BridgeResult<MediaAddResult>>,
      files,
    );
  return { ...api, host: 'electron' };
}

contextBridge.exposeInMainWorld('postdesk', buildBridge());
