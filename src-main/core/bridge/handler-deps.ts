import type { HostKind } from '../../../src-shared/ipc/common';
import type { Tools } from '../media/tools';
import type { CommandLinePort } from './command-line';
import type { ConfirmPort } from './confirm';
import type { BridgeEvents } from './events';
import type { GrantRegistry } from './grants';
import type { Handlers } from './handler-types';
import type { ThumbnailPort } from './host-ports';
import type { MediaRegistry } from './media-registry';
import type { FilePicker } from './ports';
import type { RouteInbox } from './route-inbox';

/** What the handlers take besides the core's ports: the host's own parts and the bridge's registries. */
export interface BridgeDeps {
  readonly host: HostKind;
  readonly version: string;
  readonly platform?: string;
  readonly events: BridgeEvents;
  readonly media: MediaRegistry;
  /** What the user chose; every channel that reads a file takes one of its ids, never a path. */
  readonly grants: GrantRegistry;
  /** Pictures of posts for the rows, fetched by the host (src-main/host/thumbnails.ts). */
  readonly thumbnails: ThumbnailPort;
  /** Asks the user, outside the page, before a change to what Postdesk runs; absent: such changes are refused. */
  readonly confirm?: ConfirmPort | undefined;
  /** Main's own open dialog (`files:pick`); absent: `unavailable`. */
  readonly picker?: FilePicker | undefined;
  /** Opens an already allowlisted https URL in the user's browser; absent: links are not opened. */
  readonly openExternal?: (url: string) => Promise<void>;
  readonly externalHosts?: readonly string[];
  readonly clock?: () => Date;
  /** Deep links waiting for a page (`app:pendingRoute`); absent: there is never one. */
  readonly routes?: RouteInbox;
  /** ffmpeg/ffprobe for `media:inspect` (the settings' paths); default: bundled, then PATH. */
  readonly tools?: Tools;
  /** A private folder for converted copies (`media:convert`). */
  readonly convertDir: string;
  /** Drafts and the media library (`compose-port.ts`). */
  readonly compose: Handlers['compose'];
  /** The desktop app's `postdesk` launcher (`commandLine:*`); absent: offered by the desktop app only. */
  readonly commandLine?: CommandLinePort | undefined;
  /** AI assistants' proposals and activity (`assistant-handlers.ts`). */
  readonly assistant: Handlers['assistant'];
}
