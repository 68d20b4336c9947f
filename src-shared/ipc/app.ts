import { z } from 'zod';
import { event, invoke } from './define';
import { HostKind, NoInput } from './common';

export const AppInfo = z.object({
  host: HostKind,
  version: z.string(),
  /** The OS, for keyboard hints (`darwin`, `linux`, `win32`). */
  platform: z.string(),
  /** Whether `files.pick` opens main's own dialog here; otherwise the page picks and the host receives bytes. */
  file_dialog: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const OpenExternalInput = z.object({ url: z.url() });
export type OpenExternalInput = z.infer<typeof OpenExternalInput>;

/** What a deep link may open: a post, a run, or the agent inbox filtered to one run's drafts. */
export const APP_ROUTE_KINDS = ['post', 'run', 'inbox'] as const;
/** `postdesk://inbox/all`: the inbox unfiltered (the tray's "Review drafts"). */
export const INBOX_ALL = 'all';

/** A screen a deep link (`postdesk://post/<id>`, `postdesk://run/<id>`, `postdesk://inbox/<run id>`) or a notification asks for. */
export const AppRoute = z.object({ kind: z.enum(APP_ROUTE_KINDS), id: z.string().min(1).max(200) });
export type AppRoute = z.infer<typeof AppRoute>;

/** The shell: host facts and opening links. Only https links of the allowlist ever open. */
export const app = {
  info: invoke(NoInput, AppInfo),
  openExternal: invoke(OpenExternalInput, z.object({ opened: z.boolean() })),
  /** A user-facing notice from main (for example an update is ready). */
  didNotify: event(z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() })),
  /** A deep link (`postdesk://post/<id>`, `postdesk://run/<id>`) asks the UI to show a post or a run. */
  didOpenRoute: event(AppRoute),
  /**
   * The route that arrived before the page subscribed (a link that opened a new window), or null;
   * taking it clears it. Call once after subscribing to `onDidOpenRoute`.
   */
  pendingRoute: invoke(NoInput, z.object({ route: AppRoute.nullable() })),
} as const;
