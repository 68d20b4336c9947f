import { basename } from 'node:path';
import type { ComposeDraft, ComposeDraftSummary, LibraryItem } from '../../../src-shared/ipc/compose';
import type { MediaFile } from '../../../src-shared/ipc/media';
import { openDraftStore, type DraftRecord } from '../compose/draft-store';
import { openMediaLibrary, type LibraryRecord } from '../compose/media-library';
import type { Store } from '../store/store';
import { BridgeFault, notConnected } from './bridge-fault';
import type { Handlers } from './handler-types';
import type { MediaRegistry } from './media-registry';
import { statPath } from '../files';

export interface ComposeDeps {
  readonly store: Store;
  /** The current connection's scope (the same the uploads and the delivery index use); null: not connected. */
  readonly scope: () => string | null;
  /** The scope the uploader records uploads under (the client's base URL); null: not connected. */
  readonly mediaScope: () => string | null;
  /** Where a library file is registered so the page can preview it through the host's media URL. */
  readonly media: MediaRegistry;
  readonly clock?: () => Date;
}

const EXCERPT = 160;
/** More local drafts than anyone keeps by hand: past it, a new one waits until some are sent or discarded. */
export const MAX_DRAFTS = 500;

const summaryOf = (d: DraftRecord): ComposeDraftSummary => ({
  id: d.id,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
  caption: d.content.caption.slice(0, EXCERPT),
  account_count: d.content.account_ids.length,
  media_count: d.content.media.length,
});

/** `compose:*`: drafts kept in main's store per connection, and the library of media already uploaded. */
export function createComposeHandlers(deps: ComposeDeps): Handlers['compose'] {
  const drafts = openDraftStore(deps.store, deps.clock);
  const library = openMediaLibrary(deps.store);
  const scope = (): string => {
    const s = deps.scope();
    if (s === null) throw notConnected();
    return s;
  };
  const mediaScope = (): string => {
    const s = deps.mediaScope();
    if (s === null) throw notConnected();
    return s;
  };

  /**
   * The file of an upload, registered for preview when it is still the file that was uploaded (same size and
   * time); otherwise the asset stays reusable under an id of its own, without a preview.
   */
  async function fileOf(r: LibraryRecord, mtimeMs: number | null): Promise<MediaFile> {
    const name = basename(r.path) || 'media';
    const kind = r.contentType === 'video/mp4' ? 'video' : 'image';
    const fallback: MediaFile = {
      id: `asset-${r.assetId}`,
      name,
      size: r.size,
      content_type: r.contentType,
      kind,
      preview_url: null,
    };
    try {
      const st = await statPath(r.path);
      if (!st.isFile() || st.size !== r.size || (mtimeMs !== null && st.mtimeMs !== mtimeMs)) return fallback;
      const added = await deps.media.addFiles([{ path: r.path, name }]);
      return added.files[0] ?? fallback;
    } catch {
      return fallback;
    }
  }
  const itemOf = async (r: LibraryRecord): Promise<LibraryItem> => ({
    asset_id: r.assetId,
    public_url: r.publicUrl,
    name: basename(r.path) || 'media',
    size: r.size,
    content_type: r.contentType,
    uploaded_at: r.uploadedAt,
    file: await fileOf(r, r.mtimeMs),
  });
  const viewOf = async (d: DraftRecord): Promise<ComposeDraft> => {
    const { media, ...rest } = d.content;
    return {
      ...rest,
      id: d.id,
      created_at: d.createdAt,
      updated_at: d.updatedAt,
      media: await Promise.all(library.find(mediaScope(), media).map(itemOf)),
    };
  };

  return {
    current: async () => {
      const d = drafts.current(scope());
      return { draft: d ? await viewOf(d) : null };
    },
    save: async ({ id, content }) => {
      const s = scope();
      if ((id === null || !drafts.has(s, id)) && drafts.count(s) >= MAX_DRAFTS)
        throw new BridgeFault(
          'invalid_input',
          `This computer keeps ${MAX_DRAFTS} local drafts already: send or discard some to keep this one.`,
        );
      // Only assets this connection uploaded stay: the page names uploads, it cannot bring in others.
      const known = new Set(library.find(mediaScope(), content.media).map((r) => r.assetId));
      const media = content.media.filter((a) => known.has(a));
      return { draft: summaryOf(drafts.save(s, id, { ...content, media })) };
    },
    open: async ({ id }) => {
      const d = drafts.open(scope(), id);
      if (!d) throw new BridgeFault('not_found', 'That draft is no longer kept on this computer.');
      return { draft: await viewOf(d) };
    },
    startNew: async () => {
      drafts.startNew(scope());
      return { started: true as const };
    },
    drafts: async () => ({ drafts: drafts.list(scope()).map(summaryOf) }),
    discard: async ({ id }) => ({ discarded: drafts.discard(scope(), id) }),
    library: async () => ({ items: await Promise.all(library.list(mediaScope()).map(itemOf)) }),
  };
}
