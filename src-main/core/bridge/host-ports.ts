import type { ApiClient } from '../api/client';
import type { ConnectionPort, SecretsPort, SettingsPort } from './ports';

/**
 * What a host (src-main/host, used by the Electron shell and `postdesk web`) hands the bridge: the session with
 * the service, the web host's download shelf and the thumbnail fetcher. Core declares them and never imports
 * their implementations.
 */

export interface OfflineService {
  readonly baseUrl: string;
  /** Authenticated with the sandbox's demo key, which stays in this process. */
  readonly client: ApiClient;
  /** That key, for the sandbox's MCP server (approving an assistant's proposal, testing the connection). */
  readonly apiKey?: string | null;
}

/** Which service the bridge talks to, switchable at run time from Connect and "Try offline". */
export interface BridgeSession {
  readonly connection: ConnectionPort;
  readonly secrets: SecretsPort;
  readonly settings: SettingsPort;
  /** The client of the current connection, or null. Other ports (uploads) use the same one. */
  current(): ApiClient | null;
  /** Whether the current connection is the embedded sandbox. */
  isOffline(): boolean;
  /** Called after every switch of connection, so modules bound to a client can follow. */
  onDidSwitch(listener: (client: ApiClient | null) => void): () => void;
  /**
   * The service's address and the key, for its MCP server (core/assistant); null when not connected or
   * without a key. Stays in main: no channel answers it.
   */
  mcpAccess(): Promise<{ baseUrl: string; apiKey: string; offline: boolean } | null>;
  close(): Promise<void>;
}

/** A file waiting for the browser to fetch it once. */
export interface Download {
  readonly file: string;
  /** The name the browser saves it under. */
  readonly name: string;
}

/**
 * `postdesk web`'s exports: written privately under the host's staging folder, then fetched once by the page
 * from `/bridge/downloads/<id>` (the host's guard checks the launch secret). A browser picks where a download
 * goes, so the page never names a path here either; the id is random and good for one fetch.
 */
export interface DownloadShelf {
  /** A new private place for a file called `name`; `url` is what the page fetches it from once it is written. */
  reserve(name: string): Promise<Download & { readonly id: string; readonly url: string }>;
  /** Hands a ready download over once (then forgets it); undefined for an id never given or already taken. */
  take(id: string): Download | undefined;
  /** Removes a reserved file that will not be offered (the export failed). */
  discard(id: string): Promise<void>;
}

/** Pictures of posts as `data:` URLs for the rows (src-main/host/thumbnails.ts). */
export interface ThumbnailPort {
  /** The picture at `url` as a data URL, or null (not allowed, not an image, too big, unreachable). */
  of(url: string, serviceBase: string): Promise<string | null>;
}
