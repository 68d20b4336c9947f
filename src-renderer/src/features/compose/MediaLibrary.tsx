import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LibraryItem } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatRelative } from '../../app/format';
import { IconFilm } from '../../components/icons';
import { useComposeStore } from '../../stores/use-compose-store';
import { useMediaStore } from '../../stores/use-media-store';
import { LoadGate } from '../../components/LoadGate';

/** Media this connection has uploaded before: put into the post as they are, without uploading again. */
export function MediaLibrary() {
  const [open, setOpen] = useState(false);
  const { library, loadLibrary, mediaChanged } = useComposeStore(
    useShallow((s) => ({ library: s.library, loadLibrary: s.loadLibrary, mediaChanged: s.mediaChanged })),
  );
  const { items, attach } = useMediaStore(useShallow((s) => ({ items: s.items, attach: s.attach })));
  const inPost = new Set(items.flatMap((it) => (it.uploaded ? [it.uploaded.asset_id] : [])));

  const toggle = () => {
    if (!open) void loadLibrary();
    setOpen(!open);
  };
  const use = (item: LibraryItem) => {
    attach([item]);
    mediaChanged();
  };

  return (
    <div className="form-stack">
      <button
        type="button"
        className="btn btn--small btn--ghost"
        aria-expanded={open}
        aria-controls="compose-library"
        onClick={toggle}
      >
        {open ? 'Hide the media library' : 'Reuse uploaded media'}
      </button>
      {open ? (
        <div id="compose-library">
          <LoadGate state={library} what="the media library" onRetry={loadLibrary} freshness>
            {library.data?.length === 0 ? (
              <p className="muted">Nothing uploaded through this connection yet.</p>
            ) : (
              <ul className="list-stack library-grid" aria-label="Media library">
                {(library.data ?? []).map((item) => {
                  const name = plainName(item.name);
                  const taken = inPost.has(item.asset_id);
                  return (
                    <li key={item.asset_id} className="library-item" aria-label={name}>
                      {item.file.preview_url && item.file.kind === 'image' ? (
                        <img className="media-thumb" src={item.file.preview_url} alt={`Preview of ${name}`} />
                      ) : item.file.preview_url && item.file.kind === 'video' ? (
                        <video
                          className="media-thumb"
                          src={item.file.preview_url}
                          muted
                          preload="metadata"
                          aria-label={`Preview of ${name}`}
                        />
                      ) : (
                        <span className="media-thumb media-thumb--empty" aria-hidden="true">
                          <IconFilm size={22} />
                        </span>
                      )}
                      <span className="truncate" title={name}>
                        {name}
                      </span>
                      <span className="field__hint">Uploaded {formatRelative(item.uploaded_at)}</span>
                      <button
                        type="button"
                        className="btn btn--small"
                        disabled={taken}
                        aria-label={taken ? `${name} is in the post` : `Add ${name} to the post`}
                        onClick={() => use(item)}
                      >
                        {taken ? 'In the post' : 'Add'}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </LoadGate>
        </div>
      ) : null}
    </div>
  );
}
