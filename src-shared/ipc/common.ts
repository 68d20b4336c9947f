import { z } from 'zod';

/** The input of a channel that takes none: call it with no argument. */
export const NoInput = z.void();

/** Which process serves the bridge: the Electron main process or `postdesk web`. */
export const HOST_KINDS = ['electron', 'web'] as const;
export const HostKind = z.enum(HOST_KINDS);
export type HostKind = z.infer<typeof HostKind>;

/** Local ids minted by main (preview ids, plan ids): opaque, never paths. */
export const LocalId = z.string().min(1).max(200);

/**
 * A grant: main's own id for one file or folder the user chose (main's open dialog, a drop read by the
 * preload, an upload to `postdesk web`). The only way a file reaches main from a page: no channel takes a path.
 */
export const GrantId = z.uuid();
export type GrantId = z.infer<typeof GrantId>;
