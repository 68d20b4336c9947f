/**
 * `postdesk://post/<id>`, `postdesk://run/<id>` and `postdesk://inbox/<run id>`: parsed and validated like any other input, then routed
 * to the window. Links reach us from the OS (macOS `open-url`, argv on Windows and Linux, a second
 * instance) and from our own notifications; all take the same path.
 */
import type { App } from 'electron';
import { z } from 'zod';
import { APP_ROUTE_KINDS } from '../../src-shared/ipc/app';

export { INBOX_ALL } from '../../src-shared/ipc/app';
import type { Logger } from './capabilities';
import { DisposableStore, listen, toDisposable, type Disposable } from '../core/common/events';

export const DEEP_LINK_SCHEME = 'postdesk';
export const DEEP_LINK_KINDS = APP_ROUTE_KINDS;
/** Longest id accepted: service ids are UUIDs (36 characters); anything far longer is not an id. */
export const DEEP_LINK_ID_MAX = 64;
/** Longest link looked at, before any parsing. */
export const DEEP_LINK_MAX = 128;

export const DeepLinkId = z
  .string()
  .max(DEEP_LINK_ID_MAX)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'an id is letters, digits, "-" and "_"');

export const DeepLinkRoute = z.object({ kind: z.enum(DEEP_LINK_KINDS), id: DeepLinkId });
export type DeepLinkRoute = z.infer<typeof DeepLinkRoute>;

/**
 * Matched on the raw text, not through `new URL()`: the URL parser normalises `post/../../x` to `/x`
 * and percent-decodes, which would let a crafted link through as a different, valid-looking one.
 * Scheme and host are case-insensitive (as URLs are); a trailing slash is tolerated because Windows
 * shells add one.
 */
const LINK = /^postdesk:\/\/(post|run|inbox)\/([^/?#]*)\/?$/i;

export const DeepLink = z
  .string()
  .max(DEEP_LINK_MAX, 'too long')
  .transform((raw, ctx) => {
    const m = LINK.exec(raw);
    if (!m) {
      ctx.addIssue({
        code: 'custom',
        message: 'not a postdesk://post/<id>, postdesk://run/<id> or postdesk://inbox/<id> link',
      });
      return z.NEVER;
    }
    const route = DeepLinkRoute.safeParse({ kind: (m[1] as string).toLowerCase(), id: m[2] });
    if (!route.success) {
      ctx.addIssue({ code: 'custom', message: route.error.issues[0]?.message ?? 'bad id' });
      return z.NEVER;
    }
    return route.data;
  });

export type DeepLinkResult =
  Readonly<{ ok: true; route: DeepLinkRoute }> | Readonly<{ ok: false; reason: string }>;

export function parseDeepLink(raw: unknown): DeepLinkResult {
  const parsed = DeepLink.safeParse(raw);
  if (parsed.success) return { ok: true, route: parsed.data };
  return { ok: false, reason: parsed.error.issues[0]?.message ?? 'invalid' };
}

export function deepLinkFor(route: DeepLinkRoute): string {
  return `${DEEP_LINK_SCHEME}://${route.kind}/${route.id}`;
}

/** The arguments that look like one of our links; everything else on the command line is ignored. */
export function deepLinksInArgv(argv: readonly string[]): string[] {
  return argv.filter((a) => typeof a === 'string' && a.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
}

/** A short, printable preview of rejected input for the log: never the whole of it. */
export function previewForLog(raw: unknown): string {
  if (typeof raw !== 'string') return `<${typeof raw}>`;
  const head = raw.slice(0, 24).replace(/[^\x20-\x7e]/g, '?');
  return raw.length > 24 ? `${head}… (${raw.length} chars)` : head;
}

export type DeepLinkSource = 'open-url' | 'argv' | 'second-instance' | 'notification' | 'tray';

export interface DeepLinkTarget {
  /** Brings the window up (creating it if needed). */
  reveal(): void;
  /** Shows the screen for this route in the window. */
  navigate(route: DeepLinkRoute): void;
}

/**
 * Validates and routes links. Links that arrive before the window exists (macOS delivers `open-url`
 * before `ready`) wait; only the latest is kept, as that is the one the user clicked last.
 */
export class DeepLinkRouter {
  private target: DeepLinkTarget | null = null;
  private pending: DeepLinkRoute | null = null;

  constructor(private readonly log: Logger) {}

  attach(target: DeepLinkTarget): Disposable {
    this.target = target;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.route(pending);
    return toDisposable(() => {
      if (this.target === target) this.target = null;
    });
  }

  /** Returns whether the link was accepted. */
  open(raw: unknown, source: DeepLinkSource): boolean {
    const result = parseDeepLink(raw);
    if (!result.ok) {
      this.log.warn('deep link rejected', { source, reason: result.reason, link: previewForLog(raw) });
      return false;
    }
    if (this.target) this.route(result.route);
    else this.pending = result.route;
    return true;
  }

  /** Routes the first link found on a command line (the OS passes one link per launch). */
  openFromArgv(argv: readonly string[], source: DeepLinkSource): boolean {
    const [link] = deepLinksInArgv(argv);
    return link === undefined ? false : this.open(link, source);
  }

  private route(route: DeepLinkRoute): void {
    const target = this.target as DeepLinkTarget;
    target.reveal();
    target.navigate(route);
  }
}

export type ProtocolRegistration = Readonly<{
  /** `process.defaultApp`: true when run as `electron .` in development. */
  defaultApp: boolean;
  execPath: string;
  /** The app's entry script when `defaultApp` (so the OS launches `electron <script> <link>`). */
  entryScript: string | undefined;
}>;

/**
 * Registers `postdesk://` with the OS and listens for macOS's `open-url`. Call before `ready`: macOS
 * delivers the link that launched the app before then.
 */
export function registerDeepLinks(
  app: App,
  router: DeepLinkRouter,
  registration: ProtocolRegistration,
  log: Logger,
): Disposable {
  const store = new DisposableStore();
  const registered =
    registration.defaultApp && registration.entryScript
      ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, registration.execPath, [registration.entryScript])
      : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  if (!registered) log.warn('could not register as the handler of postdesk:// links');
  store.add(
    listen(app, 'open-url', (event: Electron.Event, url: string) => {
      event.preventDefault();
      router.open(url, 'open-url');
    }),
  );
  return store;
}
