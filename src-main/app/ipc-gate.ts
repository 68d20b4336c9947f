import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { fail, issuesOf, ok, type BridgeResult } from '../../src-shared/ipc/bridge-error';
import { CHANNELS } from '../../src-shared/ipc/contract';
import { DROP_GRANT_CHANNEL, DropGrantInput } from '../../src-shared/ipc/files';
import type { BridgeDispatcher } from '../core/bridge/dispatcher';
import type { GrantRegistry } from '../core/bridge/grants';

/**
 * The only place that touches `ipcMain`. Every invoke channel of the contract is registered here
 * behind one gate: the sender must be our main window's top frame showing our renderer, the input
 * must parse (the dispatcher does that), and failures come back as typed results.
 */
export interface IpcGateOptions {
  readonly dispatcher: BridgeDispatcher;
  /** The main window, or null while none is open. */
  readonly window: () => BrowserWindow | null;
  /** Whether a frame URL is our renderer (window.ts `isRendererUrl`). */
  readonly isTrustedUrl: (url: string) => boolean;
  /**
   * Where the preload's drop channel mints grants. That channel is not in the contract: only the preload,
   * which alone reads a dropped file's path, can name it; the page cannot.
   */
  readonly grants: GrantRegistry;
}

export interface IpcGate {
  /** Which channels are registered (the test checks this is every invoke channel). */
  readonly channels: readonly string[];
  dispose(): void;
}

export const FORBIDDEN: BridgeResult<never> = fail({ kind: 'forbidden', message: 'not the Postdesk window' });

/** True when the call comes from the top frame of our window, on our renderer's origin. */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  win: BrowserWindow | null,
  isTrustedUrl: (url: string) => boolean,
): boolean {
  if (!win || win.isDestroyed()) return false;
  if (event.sender !== win.webContents) return false;
  const frame = event.senderFrame;
  if (!frame || frame !== win.webContents.mainFrame) return false;
  return isTrustedUrl(frame.url);
}

export function registerIpcHandlers(opts: IpcGateOptions): IpcGate {
  const names: string[] = [];
  for (const c of CHANNELS) {
    if (c.def.kind !== 'invoke') continue;
    const name = c.name;
    ipcMain.handle(name, (event, input: unknown) =>
      isTrustedSender(event, opts.window(), opts.isTrustedUrl)
        ? opts.dispatcher.invoke(name, input)
        : FORBIDDEN,
    );
    names.push(name);
  }
  ipcMain.handle(DROP_GRANT_CHANNEL, async (event, input: unknown): Promise<BridgeResult<unknown>> => {
    if (!isTrustedSender(event, opts.window(), opts.isTrustedUrl)) return FORBIDDEN;
    const parsed = DropGrantInput.safeParse(input);
    if (!parsed.success) {
      return fail({ kind: 'invalid_input', message: 'invalid drop', issues: issuesOf(parsed.error) });
    }
    return ok(await opts.grants.mint(parsed.data.items, 'drop'));
  });
  names.push(DROP_GRANT_CHANNEL);
  // Events go only to our window, and only while it shows our renderer.
  const events = opts.dispatcher.subscribe((channel, payload) => {
    const win = opts.window();
    if (!win || win.isDestroyed()) return false;
    const frame = win.webContents.mainFrame;
    if (!opts.isTrustedUrl(frame.url)) return false;
    win.webContents.send(channel, payload);
    // A page still loading has not subscribed yet: for it the event was not delivered.
    return !win.webContents.isLoading();
  });
  return {
    channels: names,
    dispose() {
      for (const n of names) ipcMain.removeHandler(n);
      events.dispose();
    },
  };
}
