import { z } from 'zod';
import { BridgeResultSchema } from './bridge-error';

/** The WebSocket path of `postdesk web`; the session secret rides in `?token=` of the upgrade request. */
export const WS_PATH = '/bridge';
/**
 * Where the page trades the one-time code of its link for the session secret: POST `{"code": "…"}`,
 * answered with a `BridgeResult` of `{ token }`. A code works once.
 */
export const SESSION_PATH = '/bridge/session';
/** Where the browser bridge posts dropped files' bytes (header `x-postdesk-token`, `x-file-name`). */
export const FILES_PATH = '/bridge/files';
/** Where `postdesk web` hands an export to the browser, once: `/bridge/downloads/<id>?token=`. */
export const DOWNLOADS_PATH = '/bridge/downloads/';
/** Where `postdesk web` serves registered media previews (`/media/<id>?token=`). */
export const MEDIA_PATH = '/media/';
export const TOKEN_HEADER = 'x-postdesk-token';
export const FILE_NAME_HEADER = 'x-file-name';

/** Page → host. `id` pairs the answer with the call. */
export const ClientMessage = z.object({
  t: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  input: z.unknown().optional(),
});
export type ClientMessage = z.infer<typeof ClientMessage>;

/** Host → page: the answer to one call, or an event for every page. */
export const ServerMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('result'), id: z.number().int(), result: BridgeResultSchema }),
  z.object({ t: z.literal('event'), channel: z.string(), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/**
 * How a page's link to `postdesk web` stands: `open`; `reconnecting` (the socket closed, the bridge tries
 * again, waiting longer each time); `refused` (the host no longer accepts this page's session secret, after a
 * restart or from another launch: it tries no more, and the page must say what to do).
 */
export type LinkState = 'open' | 'reconnecting' | 'refused';

const CREDENTIAL = /^[A-Za-z0-9_-]{16,200}$/;

/** Reads the one-time code of a link the host printed or opened: `#code=…` (a fragment is never sent to a server). */
export function readLaunchCode(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('code');
  return value && CREDENTIAL.test(value) ? value : null;
}

export const SessionRequest = z.object({ code: z.string().regex(CREDENTIAL) });
export const SessionGrant = z.object({ token: z.string().regex(CREDENTIAL) });
export type SessionGrant = z.infer<typeof SessionGrant>;
