/**
 * A fake of the Electron runtime, the one edge that cannot run here (no Electron binary). Tests use it
 * through `vi.mock('electron', () => electronFake.module)`; `installElectronForRequire` also serves it to
 * CommonJS `require('electron')` inside dependencies (electron-updater), which vi.mock cannot reach.
 *
 * Each fake keeps what the code under test did with it (templates built, notifications shown, calls
 * made) so tests assert on behaviour, and emits events the way Electron does.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { Module, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MenuItemConstructorOptions } from 'electron';

/** An Electron-style event: `preventDefault()` marks it. */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  version = '0.1.0';
  name = 'Postdesk';
  lockAvailable = true;
  lockHeld = false;
  paths: Record<string, string> = {};
  appPath = tmpdir();
  loginItem: Record<string, unknown> = { openAtLogin: false };
  readonly protocolClients: Array<{ scheme: string; execPath?: string; args?: readonly string[] }> = [];
  readonly calls = { quit: 0, relaunch: 0, exit: [] as number[] };
  /** True once a quit got through `before-quit` unprevented. */
  quitted = false;

  requestSingleInstanceLock(): boolean {
    this.lockHeld = this.lockAvailable;
    return this.lockAvailable;
  }
  releaseSingleInstanceLock(): void {
    this.lockHeld = false;
  }
  hasSingleInstanceLock(): boolean {
    return this.lockHeld;
  }
  /** Like Electron: `before-quit` (preventable), then `will-quit` and `quit`. */
  quit(): void {
    this.calls.quit += 1;
    const e = new FakeEvent();
    this.emit('before-quit', e);
    if (e.defaultPrevented) return;
    this.quitted = true;
    this.emit('will-quit', new FakeEvent());
    this.emit('quit', new FakeEvent(), 0);
  }
  exit(code = 0): void {
    this.calls.exit.push(code);
  }
  relaunch(): void {
    this.calls.relaunch += 1;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  isReady(): boolean {
    return true;
  }
  getVersion(): string {
    return this.version;
  }
  getName(): string {
    return this.name;
  }
  getAppPath(): string {
    return this.appPath;
  }
  getPath(name: string): string {
    return this.paths[name] ?? tmpdir();
  }
  setLoginItemSettings(settings: Record<string, unknown>): void {
    this.loginItem = { ...settings };
  }
  getLoginItemSettings(): Record<string, unknown> {
    return { wasOpenedAtLogin: false, ...this.loginItem };
  }
  setAsDefaultProtocolClient(scheme: string, execPath?: string, args?: readonly string[]): boolean {
    this.protocolClients.push({ scheme, execPath, args });
    return true;
  }
}

export class FakeNativeImage {
  private template = false;
  constructor(readonly path: string) {}
  isEmpty(): boolean {
    return false;
  }
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
  isTemplateImage(): boolean {
    return this.template;
  }
}

export class FakeMenu {
  constructor(readonly template: MenuItemConstructorOptions[]) {}
  /** Clicks the item with this label, as a user would. */
  click(label: string): void {
    const item = this.template.find((i) => i.label === label);
    if (!item) throw new Error(`no menu item "${label}" in [${this.labels().join(', ')}]`);
    if (item.enabled === false) throw new Error(`menu item "${label}" is disabled`);
    (item.click as (() => void) | undefined)?.();
  }
  labels(): string[] {
    return this.template.map((i) => (i.type === 'separator' ? '---' : String(i.label)));
  }
  /** As Electron's `menu.items`: every item with its type, label and enabled state filled in. */
  get items(): Array<{ type: string; label: string; enabled: boolean }> {
    return this.template.map((i) => ({
      type: i.type ?? 'normal',
      label: i.label ?? '',
      enabled: i.enabled ?? true,
    }));
  }
}

export class FakeTray extends EventEmitter {
  image: FakeNativeImage;
  toolTip = '';
  menu: FakeMenu | null = null;
  destroyed = false;
  readonly images: FakeNativeImage[] = [];

  constructor(image: FakeNativeImage) {
    super();
    this.image = image;
    this.images.push(image);
    state.trays.push(this);
  }
  setImage(image: FakeNativeImage): void {
    this.image = image;
    this.images.push(image);
  }
  setToolTip(text: string): void {
    this.toolTip = text;
  }
  setContextMenu(menu: FakeMenu): void {
    this.menu = menu;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class FakeNotification extends EventEmitter {
  static supported = true;
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  shown = false;
  closed = false;
  constructor(readonly options: Readonly<{ title: string; body: string }>) {
    super();
    state.notifications.push(this);
  }
  show(): void {
    this.shown = true;
  }
  close(): void {
    this.closed = true;
    this.emit('close', new FakeEvent());
  }
  /** The user clicks it. */
  click(): void {
    this.emit('click', new FakeEvent());
  }
}

/** A frame: what the IPC gate checks of a sender. */
export interface FakeFrame {
  url: string;
}

type Handler = (...args: never[]) => unknown;

/**
 * A window's session: it keeps the handlers and protocols the window set on it, so a test can call
 * them as Electron would.
 */
export class FakeSession {
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  headersReceivedListener: Handler | null = null;
  readonly protocols = new Map<string, (request: { url: string }) => unknown>();
  setPermissionRequestHandler(handler: Handler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null): void {
    this.permissionCheckHandler = handler;
  }
  readonly webRequest = {
    onHeadersReceived: (listener: Handler | null) => void (this.headersReceivedListener = listener),
  };
  readonly protocol = {
    handle: (scheme: string, handler: (request: { url: string }) => unknown) =>
      void this.protocols.set(scheme, handler),
  };
}

/**
 * A window's webContents: it records what the window set up (handlers, protocols) and the URLs it
 * loaded; a loaded URL becomes its main frame's URL, as after a navigation.
 */
export class FakeWebContents extends EventEmitter {
  readonly loaded: string[] = [];
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  readonly mainFrame: FakeFrame = { url: '' };
  readonly session = new FakeSession();
  windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
  /** The protocols handled on its session. */
  get protocols(): Map<string, (request: { url: string }) => unknown> {
    return this.session.protocols;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.mainFrame.url = url;
  }
  isLoading(): boolean {
    return false;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  readonly calls = { show: 0, hide: 0, focus: 0, restore: 0 };

  /** `options` are kept as given (the window's size, its webPreferences). */
  constructor(readonly options: Readonly<Record<string, unknown>> = {}) {
    super();
    state.windows.push(this);
  }
  show(): void {
    this.calls.show += 1;
    this.visible = true;
  }
  hide(): void {
    this.calls.hide += 1;
    this.visible = false;
  }
  focus(): void {
    this.calls.focus += 1;
    this.focused = true;
  }
  restore(): void {
    this.calls.restore += 1;
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  async loadURL(url: string): Promise<void> {
    await this.webContents.loadURL(url);
  }
  /** The user closes the window: `close` is preventable, as in Electron. */
  close(): void {
    const e = new FakeEvent();
    this.emit('close', e);
    if (e.defaultPrevented) return;
    this.destroyed = true;
    this.visible = false;
    this.emit('closed');
  }
}

/** What main's handler gets as the event of a renderer's invoke: no window stands behind this preload. */
const RENDERER_EVENT = Object.freeze({ sender: null, senderFrame: null });

/**
 * The renderer's `ipcRenderer`. `invoke` reaches the handler main registered with `ipcMain.handle`, its
 * input and answer cloned as Electron clones them, and fails as Electron does when main has none; `on`
 * listeners are kept by channel, and main's messages arrive with `emit(channel, event, payload)`.
 */
export class FakeIpcRenderer extends EventEmitter {
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    state.rendererInvoked.push({ channel, args });
    const handler = state.ipcHandlers.get(channel);
    const failed = (why: string) => new Error(`Error invoking remote method '${channel}': ${why}`);
    if (!handler) throw failed(`Error: No handler registered for '${channel}'`);
    const input = structuredClone(args);
    try {
      return structuredClone(await handler(RENDERER_EVENT, ...input));
    } catch (error) {
      throw failed(String(error));
    }
  }
  send(channel: string, ...args: unknown[]): void {
    state.rendererSent.push({ channel, args });
  }
}

type RequestOptions = http.RequestOptions & { protocol?: string; redirect?: string; session?: unknown };

/**
 * `net.request` on Node's http: electron-updater's ElectronHttpExecutor drives it exactly as it drives
 * Electron's ClientRequest (`response`, `error`, `socket`, `abort`). Electron-only options are dropped.
 */
function netRequest(options: RequestOptions): http.ClientRequest {
  const { redirect: _redirect, session: _session, ...rest } = options;
  const request = rest.protocol === 'https:' ? https.request(rest) : http.request(rest);
  state.netRequests.push(
    `${rest.method ?? 'GET'} ${rest.protocol ?? 'http:'}//${rest.hostname}:${rest.port}${rest.path}`,
  );
  return request;
}

interface FakeState {
  /** Channels given to `ipcMain.handle` and not removed. */
  ipcHandlers: Map<string, (...args: unknown[]) => unknown>;
  privilegedSchemes: unknown[];
  trays: FakeTray[];
  notifications: FakeNotification[];
  windows: FakeBrowserWindow[];
  menus: FakeMenu[];
  netRequests: string[];
  /** URLs given to `net.fetch`. */
  fetched: string[];
  /** Message boxes shown (their options), and the button label the user will click next (default the first). */
  messageBoxes: { message: string; detail?: string; buttons: string[] }[];
  messageBoxAnswer: string | null;
  /** What the user will choose in the next open dialog (none: cancelled). */
  openDialogAnswer: string[];
  /** Folders and files handed to `shell.openPath`. */
  openedPaths: string[];
  /** URLs handed to `shell.openExternal`. */
  openedExternal: string[];
  /** What a preload handed the page through `contextBridge.exposeInMainWorld`, by key. */
  exposed: Map<string, unknown>;
  /** A renderer's `ipcRenderer.invoke` and `send` calls, in order. */
  rendererInvoked: Array<{ channel: string; args: unknown[] }>;
  rendererSent: Array<{ channel: string; args: unknown[] }>;
  /** The paths `webUtils.getPathForFile` knows: the files the user really dropped or picked. */
  filePaths: Map<object, string>;
}

const state: FakeState = {
  ipcHandlers: new Map(),
  privilegedSchemes: [],
  trays: [],
  notifications: [],
  windows: [],
  menus: [],
  netRequests: [],
  fetched: [],
  messageBoxes: [],
  messageBoxAnswer: null,
  openDialogAnswer: [],
  openedPaths: [],
  openedExternal: [],
  exposed: new Map(),
  rendererInvoked: [],
  rendererSent: [],
  filePaths: new Map(),
};

function makeModule() {
  return {
    app: new FakeApp(),
    powerMonitor: new EventEmitter(),
    /** Electron's own autoUpdater: electron-updater emits `before-quit-for-update` on it. */
    autoUpdater: new EventEmitter(),
    Tray: FakeTray,
    Notification: FakeNotification,
    BrowserWindow: FakeBrowserWindow,
    Menu: {
      buildFromTemplate(template: MenuItemConstructorOptions[]): FakeMenu {
        const menu = new FakeMenu(template);
        state.menus.push(menu);
        return menu;
      },
    },
    nativeImage: {
      createFromPath: (path: string) => new FakeNativeImage(path),
      createEmpty: () => new FakeNativeImage(''),
    },
    net: {
      request: netRequest,
      /** `net.fetch` of a file:// URL (what the media protocol serves): the file, as Electron reads it. */
      fetch: async (url: string): Promise<Response> => {
        state.fetched.push(url);
        return new Response(new Uint8Array(await readFile(fileURLToPath(url))), { status: 200 });
      },
    },
    session: { fromPartition: () => ({}) },
    shell: {
      openExternal: async (url: string) => void state.openedExternal.push(url),
      openPath: async (path: string) => {
        state.openedPaths.push(path);
        // Electron answers with an error message, empty when the folder opened.
        return '';
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => void state.privilegedSchemes.push(...schemes),
    },
    /** Native dialogs: each message box is recorded and answered with `state.messageBoxAnswer`. */
    dialog: {
      showMessageBox: async (...args: unknown[]) => {
        const o = args.at(-1) as { message: string; detail?: string; buttons: string[] };
        state.messageBoxes.push(o);
        const i = state.messageBoxAnswer === null ? 0 : o.buttons.indexOf(state.messageBoxAnswer);
        return { response: Math.max(0, i), checkboxChecked: false };
      },
      showOpenDialog: async () => ({
        canceled: state.openDialogAnswer.length === 0,
        filePaths: [...state.openDialogAnswer],
      }),
    },
    ipcMain: {
      /** Like Electron, a second handler for a channel throws. */
      handle: (channel: string, handler: (...args: unknown[]) => unknown) => {
        if (state.ipcHandlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`);
        state.ipcHandlers.set(channel, handler);
      },
      removeHandler: (channel: string) => void state.ipcHandlers.delete(channel),
    },
    // The renderer side, as a preload sees it.
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => void state.exposed.set(key, api),
    },
    ipcRenderer: new FakeIpcRenderer(),
    webUtils: {
      /** Like Electron: a File the user chose has its path, any other File none, and a non-File throws. */
      getPathForFile: (file: object): string => {
        const path = state.filePaths.get(file);
        if (path !== undefined) return path;
        if (file instanceof File) return '';
        throw new TypeError('Error processing argument at index 0, conversion failure from object');
      },
    },
  };
}

export type FakeElectronModule = ReturnType<typeof makeModule>;

/** The fake module and its records. `reset()` gives each test a fresh app, monitor and records. */
export const electronFake = {
  module: makeModule(),
  state,
  get app(): FakeApp {
    return this.module.app;
  },
  get powerMonitor(): EventEmitter {
    return this.module.powerMonitor;
  },
  lastMenu(): FakeMenu {
    const menu = state.trays.at(-1)?.menu;
    if (!menu) throw new Error('no tray menu was set');
    return menu;
  },
  reset(): void {
    const fresh = makeModule();
    // Keep the object identity the mocked module was handed out with; refresh its members.
    Object.assign(this.module, {
      app: fresh.app,
      powerMonitor: fresh.powerMonitor,
      autoUpdater: fresh.autoUpdater,
      ipcRenderer: fresh.ipcRenderer,
    });
    state.trays.length = 0;
    state.notifications.length = 0;
    state.windows.length = 0;
    state.menus.length = 0;
    state.netRequests.length = 0;
    state.fetched.length = 0;
    state.ipcHandlers.clear();
    state.privilegedSchemes.length = 0;
    state.messageBoxes.length = 0;
    state.messageBoxAnswer = null;
    state.openDialogAnswer = [];
    state.openedPaths.length = 0;
    state.openedExternal.length = 0;
    state.exposed.clear();
    state.rendererInvoked.length = 0;
    state.rendererSent.length = 0;
    state.filePaths.clear();
    FakeNotification.supported = true;
  },
};

/**
 * Serves the fake to CommonJS `require('electron')` (electron-updater requires it lazily). Without this
 * Node would load node_modules/electron/index.js, which tries to download the Electron binary.
 */
export function installElectronForRequire(mod: object = electronFake.module): () => void {
  const require = createRequire(import.meta.url);
  const resolved = require.resolve('electron');
  const previous = require.cache[resolved];
  const m = new Module(resolved);
  m.filename = resolved;
  m.loaded = true;
  m.exports = mod;
  require.cache[resolved] = m;
  return () => {
    if (previous) require.cache[resolved] = previous;
    else delete require.cache[resolved];
  };
}
