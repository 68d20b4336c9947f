import {
  BrowserWindow,
  protocol as electronProtocol,
  shell,
  type BrowserWindowConstructorOptions,
  type CustomScheme,
  type Protocol,
  type Session,
} from 'electron';
import { contentSecurityPolicy } from '../host/csp';
import { EXTERNAL_HOSTS, isAllowedExternal } from '../core/bridge/external-links';
import type { MediaRegistry } from '../core/bridge/media-registry';
import { contentTypeOf, resolveStatic } from '../host/static-files';
import { MEDIA_SCHEME, registerMediaProtocol } from './media-protocol';
import { errorText } from '../core/common/error-text';
import type { Logger } from '../core/common/logger';
import { readBytes } from '../core/files';

/** The renderer is served from its own scheme rather than file://, so it has a real origin to check. */
export const APP_SCHEME = 'postdesk-app';
export const APP_ORIGIN = `${APP_SCHEME}://renderer`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/**
 * Schemes that must be registered before `app` is ready, in the one call Electron allows. A shell that
 * registers schemes of its own must pass these in the same call.
 */
export const PRIVILEGED_SCHEMES: readonly CustomScheme[] = [
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
];

export function registerPrivilegedSchemes(
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged'> = electronProtocol,
  extra: readonly CustomScheme[] = [],
): void {
  protocol.registerSchemesAsPrivileged([...PRIVILEGED_SCHEMES, ...extra]);
}

export interface MainWindowDeps {
  /** The built preload (out/preload/index.cjs). */
  readonly preloadPath: string;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  /** electron-vite's dev server in development (`devServerUrlFor`); null in a packaged app. */
  readonly devServerUrl?: string | null;
  /** The files the user added: the only ones `postdesk-media:` serves. */
  readonly media: MediaRegistry;
  /** Defaults to `shell.openExternal`; only ever called with an allowlisted https URL. */
  readonly openExternal?: (url: string) => Promise<void>;
  /** Hosts whose https links may open in the browser (the service's host is worth adding). */
  readonly externalHosts?: () => readonly string[];
  readonly partition?: string;
  /** Where a link the browser did not open is reported. */
  readonly log?: Logger;
}

export const MAIN_PARTITION = 'persist:postdesk';

/** The window's settings: the Electron security checklist, item by item. */
export function mainWindowOptions(
  preloadPath: string,
  partition = MAIN_PARTITION,
): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Postdesk',
    webPreferences: {
      preload: preloadPath,
      partition,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
    },
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * electron-vite's dev server (`ELECTRON_RENDERER_URL`), or null. Only a development build
 * (`devBuild`, a build-time constant) that is not packaged and was started by `electron-vite dev`
 * (which sets `NODE_ENV_ELECTRON_VITE=development`) honours it, and only for an http server on this
 * machine: anywhere else the variable would load any origin with the whole bridge and the IPC gate
 * would trust it.
 */
export function devServerUrlFor(
  app: { readonly isPackaged: boolean },
  env: Readonly<Record<string, string | undefined>>,
  devBuild: boolean,
): string | null {
  if (app.isPackaged || !devBuild || env.NODE_ENV_ELECTRON_VITE !== 'development') return null;
  const raw = env.ELECTRON_RENDERER_URL;
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname) ? raw : null;
  } catch {
    return null;
  }
}

/** Whether a URL is our renderer: the app scheme's origin, or the dev server's in development. */
export function isRendererUrl(url: string, devServerUrl?: string | null): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (`${u.protocol}//${u.host}` === APP_ORIGIN) return true;
  if (!devServerUrl) return false;
  try {
    return u.origin === new URL(devServerUrl).origin;
  } catch {
    return false;
  }
}

const CSP = contentSecurityPolicy();

/** Serves the built renderer on the app scheme, confined to its folder, with the CSP on every answer. */
export async function appResponse(url: string, rendererDir: string): Promise<Response> {
  let path = '/index.html';
  try {
    const u = new URL(url);
    if (`${u.protocol}//${u.host}` !== APP_ORIGIN) return new Response('not found', { status: 404 });
    path = u.pathname;
  } catch {
    return new Response('not found', { status: 404 });
  }
  const file = await resolveStatic(rendererDir, path);
  if (!file) return new Response('not found', { status: 404 });
  return new Response(new Uint8Array(await readBytes(file)), {
    headers: {
      'content-type': contentTypeOf(file),
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    },
  });
}

const securedSessions = new WeakSet<Session>();

/** Once per session: protocols, CSP on every response, every permission request denied. */
function secureSession(ses: Session, deps: MainWindowDeps): void {
  if (securedSessions.has(ses)) return;
  securedSessions.add(ses);
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    for (const k of Object.keys(headers))
      if (k.toLowerCase() === 'content-security-policy') delete headers[k];
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [CSP] } });
  });
  ses.protocol.handle(APP_SCHEME, (request) => appResponse(request.url, deps.rendererDir));
  registerMediaProtocol(ses.protocol, deps.media);
}

/**
 * The main window: sandboxed, isolated, no Node, strict CSP. It never navigates away from the app,
 * opens no windows and gets no permissions; links to allowlisted https sites open in the browser.
 */
export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(deps.preloadPath, deps.partition));
  const wc = win.webContents;
  secureSession(wc.session, deps);

  const openOutside = (url: string) => {
    const hosts = deps.externalHosts?.() ?? EXTERNAL_HOSTS;
    if (!isAllowedExternal(url, hosts)) return;
    void (deps.openExternal ?? ((u: string) => shell.openExternal(u)))(url).catch((error: unknown) =>
      deps.log?.warn('the browser did not open a link', { error: errorText(error) }),
    );
  };

  wc.on('will-navigate', (event) => {
    event.preventDefault();
    openOutside(event.url);
  });
  wc.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame || !isRendererUrl(event.url, deps.devServerUrl)) event.preventDefault();
  });
  wc.on('will-redirect', (event) => {
    if (!isRendererUrl(event.url, deps.devServerUrl)) event.preventDefault();
  });
  wc.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());

  void win.loadURL(deps.devServerUrl ?? APP_ENTRY);
  return win;
}
