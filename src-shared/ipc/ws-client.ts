import { CHANNELS, listenerName } from './contract';
import { fail, type BridgeResult } from './bridge-error';
import { addDroppedVia, type DroppedFile, type PostdeskBridge } from './bridge';
import type { MediaAddResult } from './media';
import { GrantedFiles } from './files';
import {
  FILE_NAME_HEADER,
  FILES_PATH,
  MEDIA_PATH,
  ServerMessage,
  SESSION_PATH,
  SessionGrant,
  TOKEN_HEADER,
  WS_PATH,
  readLaunchCode,
  type ClientMessage,
  type LinkState,
} from './ws-protocol';

export type { LinkState } from './ws-protocol';

/**
 * The browser side of `postdesk web`: the same `PostdeskBridge` as the preload builds, over a
 * WebSocket. Plain TypeScript: the WebSocket and fetch it needs are typed loosely (and injectable),
 * so it also runs under Node in tests.
 */

interface SocketEvent {
  readonly data?: unknown;
}
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: SocketEvent) => void,
  ): void;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

interface FetchResponseLike {
  readonly status: number;
  json(): Promise<unknown>;
}
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
) => Promise<FetchResponseLike>;

export interface WsBridgeOptions {
  /** `http://127.0.0.1:PORT`: where the page was served from. */
  readonly origin: string;
  readonly token: string;
  readonly openSocket?: WebSocketFactory;
  readonly fetch?: FetchLike;
  /** Delay before the first reconnect after the socket closes; it doubles with each failure, up to `maxReconnectMs`. */
  readonly reconnectMs?: number;
  readonly maxReconnectMs?: number;
  readonly onLinkChange?: (state: LinkState) => void;
}

const OPEN = 1;

interface Pending {
  readonly resolve: (r: BridgeResult<unknown>) => void;
}

type Listener = (payload: unknown) => void;

export interface WsBridge {
  readonly bridge: PostdeskBridge;
  close(): void;
}

// eslint-disable-next-line max-lines-per-function -- a factory whose methods share one closure's state (the socket, the calls waiting for an answer and the listeners); each method is short and named
export function createWsBridge(options: WsBridgeOptions): WsBridge {
  const openSocket =
    options.openSocket ??
    ((url: string) => {
      const Ctor = (globalThis as unknown as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
      if (!Ctor) throw new Error('no WebSocket in this runtime');
      return new Ctor(url);
    });
  const fetchFn = options.fetch ?? (globalThis as unknown as { fetch: FetchLike }).fetch;
  const wsUrl = `${options.origin.replace(/^http/, 'ws')}${WS_PATH}?token=${encodeURIComponent(options.token)}`;

  let socket: WebSocketLike | null = null;
  let closed = false;
  let nextId = 1;
  /** Closes in a row without an open in between: the backoff's exponent. */
  let failures = 0;
  let link: LinkState = 'open';
  const setLink = (state: LinkState) => {
    if (state === link) return;
    link = state;
    options.onLinkChange?.(state);
  };
  const baseDelay = options.reconnectMs ?? 1000;
  const maxDelay = options.maxReconnectMs ?? 30_000;

  /**
   * A socket that never opened may have been refused for its secret (the host restarted, or this tab kept the
   * secret of another launch). The browser does not say why an upgrade failed, so ask the host: a preview
   * request with the same secret is answered 403 only when the secret is wrong (404 for an unknown preview).
   */
  const checkSecret = async (): Promise<void> => {
    try {
      const res = await fetchFn(
        `${options.origin}${MEDIA_PATH}-?token=${encodeURIComponent(options.token)}`,
        { method: 'GET', headers: {} },
      );
      if (res.status === 401 || res.status === 403) {
        closed = true;
        setLink('refused');
      }
    } catch {
      // the host is not answering at all: keep trying, further apart
    }
  };
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const listeners = new Map<string, Set<Listener>>();

  const connect = (): WebSocketLike => {
    const s = openSocket(wsUrl);
    socket = s;
    let opened = false;
    s.addEventListener('open', () => {
      opened = true;
      failures = 0;
      setLink('open');
      for (const data of queue.splice(0)) s.send(data);
    });
    s.addEventListener('message', (ev) => onMessage(ev.data));
    // The `close` that follows every failure drives the reconnect. A listener must still be here:
    // under Node (`ws`) an unheard socket error is thrown out of the event loop.
    s.addEventListener('error', () => undefined);
    s.addEventListener('close', () => {
      if (socket === s) socket = null;
      // Calls not yet sent are answered as failed below, so they must never be sent later.
      queue.length = 0;
      for (const [id, p] of pending) {
        pending.delete(id);
        p.resolve(fail({ kind: 'network', message: 'Postdesk stopped answering this page.' }));
      }
      if (closed) return;
      failures += 1;
      setLink('reconnecting');
      if (!opened) void checkSecret();
      const delay = Math.min(maxDelay, baseDelay * 2 ** (failures - 1));
      setTimeout(() => !closed && !socket && connect(), delay);
    });
    return s;
  };

  const onMessage = (data: unknown) => {
    let parsed: ServerMessage;
    try {
      const r = ServerMessage.safeParse(JSON.parse(String(data)));
      if (!r.success) return;
      parsed = r.data;
    } catch {
      return;
    }
    if (parsed.t === 'result') {
      const p = pending.get(parsed.id);
      pending.delete(parsed.id);
      p?.resolve(parsed.result as BridgeResult<unknown>);
    } else {
      for (const l of listeners.get(parsed.channel) ?? []) l(parsed.payload);
    }
  };

  const send = (message: ClientMessage) => {
    const data = JSON.stringify(message);
    const s = socket ?? connect();
    if (s.readyState === OPEN) s.send(data);
    else queue.push(data);
  };

  const call = (channel: string, input: unknown): Promise<BridgeResult<unknown>> => {
    if (closed) {
      const message =
        link === 'refused'
          ? 'This page is no longer attached to Postdesk.'
          : 'Postdesk stopped answering this page.';
      return Promise.resolve(fail({ kind: 'network', message }));
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, { resolve });
      send({ t: 'invoke', id, channel, input });
    });
  };

  const listen = (channel: string, listener: Listener) => {
    if (!socket && !closed) connect(); // events flow only over an open socket
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    const own: Listener = (p) => listener(p);
    set.add(own);
    return () => void set.delete(own);
  };

  /** Each file's bytes go to the host's upload route, which keeps them privately and answers a grant. */
  const grant = async (files: readonly DroppedFile[]): Promise<BridgeResult<GrantedFiles>> => {
    const merged: GrantedFiles = { files: [], skipped: [] };
    for (const file of files) {
      try {
        const body =
          typeof (file as { slice?: unknown }).slice === 'function' ? file : await file.arrayBuffer();
        const res = await fetchFn(`${options.origin}${FILES_PATH}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/octet-stream',
            [TOKEN_HEADER]: options.token,
            [FILE_NAME_HEADER]: encodeURIComponent(file.name),
          },
          body,
        });
        const result = (await res.json()) as BridgeResult<unknown>;
        if (!result.ok) {
          merged.skipped.push({ name: file.name, reason: result.error.message });
          continue;
        }
        const value = GrantedFiles.parse(result.value);
        merged.files.push(...value.files);
        merged.skipped.push(...value.skipped);
      } catch {
        merged.skipped.push({ name: file.name, reason: 'could not read or send this file' });
      }
    }
    return { ok: true, value: merged };
  };

  const bridge: Record<string, Record<string, unknown>> = {};
  for (const c of CHANNELS) {
    const domain = (bridge[c.domain] ??= {});
    if (c.def.kind === 'invoke') domain[c.verb] = (input?: unknown) => call(c.name, input);
    else domain[listenerName(c.verb)] = (cb: Listener) => listen(c.name, cb);
  }
  bridge.files!.grant = grant;
  bridge.media!.addDropped = (files: readonly DroppedFile[]) =>
    addDroppedVia(grant, (input) => call('media:add', input) as Promise<BridgeResult<MediaAddResult>>, files);

  return {
    bridge: { ...bridge, host: 'web' } as unknown as PostdeskBridge,
    close() {
      closed = true;
      socket?.close();
      socket = null;
    },
  };
}

const SESSION_KEY = 'postdesk.session-secret';

/**
 * Trades the one-time code of the page's link for the session secret, or null when the host refuses
 * it (used already, expired) or cannot be reached.
 */
export async function tradeLaunchCode(
  origin: string,
  code: string,
  fetchFn: FetchLike = (globalThis as unknown as { fetch: FetchLike }).fetch,
): Promise<string | null> {
  try {
    const res = await fetchFn(`${origin}${SESSION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const body = (await res.json()) as BridgeResult<unknown>;
    if (!body.ok) return null;
    const grant = SessionGrant.safeParse(body.value);
    return grant.success ? grant.data.token : null;
  } catch {
    return null;
  }
}

/** The parts of a browser `window` that `installWebBridge` touches, typed loosely (no DOM types here). */
export interface BrowserWindowLike {
  postdesk?: unknown;
  readonly location: {
    readonly origin: string;
    readonly hash: string;
    readonly search: string;
    readonly pathname: string;
  };
  readonly history?: { replaceState(data: unknown, unused: string, url?: string): void };
  readonly sessionStorage?: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
  };
}

/**
 * Installs `window.postdesk` for a page served by `postdesk web` unless a preload already did (Electron).
 * A link's one-time code leaves the address bar at once and is traded for the session secret, which
 * sessionStorage keeps for reloads of this tab. Returns the host the page runs in; `refused` when the
 * link was used already (or expired) and this tab has no session; null without any link.
 */
export async function installWebBridge(
  win: BrowserWindowLike,
  opts: { readonly onLinkChange?: (state: LinkState) => void } = {},
): Promise<'electron' | 'web' | 'refused' | null> {
  if (win.postdesk) return 'electron';
  const code = readLaunchCode(win.location.hash);
  let stored: string | null = null;
  try {
    if (code) win.history?.replaceState(null, '', win.location.pathname);
    stored = win.sessionStorage?.getItem(SESSION_KEY) ?? null;
  } catch {
    // storage may be disabled; the bridge still works until the next reload
  }
  let token = stored;
  if (code) {
    const traded = await tradeLaunchCode(win.location.origin, code);
    // A used link in a tab that already has its session (opened twice, pasted again) keeps that session.
    if (traded) token = traded;
    else if (!stored) return 'refused';
  }
  if (!token) return null;
  try {
    win.sessionStorage?.setItem(SESSION_KEY, token);
  } catch {
    // as above
  }
  win.postdesk = createWsBridge({
    origin: win.location.origin,
    token,
    ...(opts.onLinkChange ? { onLinkChange: opts.onLinkChange } : {}),
  }).bridge;
  return 'web';
}
