import { z } from 'zod';
import { BridgeResultSchema } from './bridge-error';

/** The WebSocket path of `postdesk web`; the launch secret rides in `?token=` of the upgrade request. */
export const WS_PATH = '/bridge';
/** Where the browser bridge posts dropped files' bytes (header `x-postdesk-token`, `x-file-name`). */
export const FILES_PATH = '/bridge/files';
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

/** Reads the launch secret the host printed: `#secret=…` (preferred, never sent to a server) or `?token=…`. */
export function readLaunchSecret(hash: string, search: string): string | null {
  for (const raw of [hash.replace(/^#/, ''), search.replace(/^\?/, '')]) {
    const params = new URLSearchParams(raw);
    const value = params.get('secret') ?? params.get('token');
    if (value && /^[A-Za-z0-9_-]{16,200}$/.test(value)) return value;
  }
  return null;
}
