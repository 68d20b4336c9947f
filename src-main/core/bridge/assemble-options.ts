import type { HostKind } from '../../../src-shared/ipc/common';
import type { Logger } from '../common/logger';
import type { Store } from '../store/store';
import type { CommandLinePort } from './command-line';
import type { ConfirmPort } from './confirm';
import type { BridgeEvents } from './events';
import type { FileSaver } from './export-port';
import type { BridgeSession, DownloadShelf, ThumbnailPort } from './host-ports';
import type { BulkPort, ExecutorPort, FilePicker, UpdatesPort } from './ports';

/** What a host hands `assembleBridge` (assemble.ts): its session, its store and the parts only it has. */
export interface AssembleOptions {
  readonly host: HostKind;
  readonly version: string;
  readonly session: BridgeSession;
  readonly store: Store;
  readonly previewUrl: (id: string) => string;
  /** Pictures of posts for the rows (src-main/host/thumbnails.ts). */
  readonly thumbnails: ThumbnailPort;
  /** Where text the page sends (a CSV) is written for the import; the host removes it on exit. */
  readonly stagingDir: string;
  readonly bulk?: BulkPort | undefined;
  readonly executor?: ExecutorPort | undefined;
  readonly openExternal?: ((url: string) => Promise<void>) | undefined;
  readonly events?: BridgeEvents;
  /** The desktop updater; absent, the `updates` channels answer phase `unsupported`. */
  readonly updates?: UpdatesPort | undefined;
  /** How often failed deliveries are polled (default 2 minutes); `false` turns the timer off. */
  readonly deliveryWatchMs?: number | false;
  /** How long `posts:create` waits for the service's confirmation before answering "queued". */
  readonly createSettleMs?: number;
  /**
   * Asks the user outside the page before a change to what Postdesk runs or publishes (the desktop app's
   * dialog, `postdesk web`'s terminal); absent, such changes are refused.
   */
  readonly confirm?: ConfirmPort | undefined;
  /** Main's own open dialog behind `files:pick` (the desktop app). */
  readonly picker?: FilePicker | undefined;
  /** Main's own save dialog behind `exports:run` (the desktop app). */
  readonly saver?: FileSaver | undefined;
  /** Without a save dialog (`postdesk web`): exports become one-time browser downloads. */
  readonly downloads?: DownloadShelf | undefined;
  /** The desktop app's `postdesk` launcher; absent on `postdesk web`. */
  readonly commandLine?: CommandLinePort | undefined;
  /** Where background work that failed (replay, upload resume, polls, listeners) is reported; it never fails the host. */
  readonly log?: Logger;
  /**
   * Runs the resumption of interrupted uploads as tracked work, so the desktop's quit and update wait
   * for it as for any upload (its UploadTracker); a refusal (the app is quitting) skips the resume.
   */
  readonly trackUploads?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}
