import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatBytes } from '../../../../src-shared/format-bytes';
import { IconAlert, IconCheck, IconFilm, IconX } from '../../components/icons';
import { Progress } from '../../components/Progress';
import { useMediaStore, type MediaItem } from '../../stores/use-media-store';

function Thumb({ item }: { readonly item: MediaItem }) {
  const src = item.file.preview_url ?? item.localPreview;
  const [broken, setBroken] = useState(false);
  if (!src || broken || item.file.kind === 'other') {
    return (
      <div className="media-thumb media-thumb--empty" aria-hidden="true">
        <IconFilm size={22} />
      </div>
    );
  }
  return item.file.kind === 'video' ? (
    <video
      className="media-thumb"
      src={src}
      muted
      preload="metadata"
      aria-label={`Preview of ${plainName(item.file.name)}`}
      onError={() => setBroken(true)}
    />
  ) : (
    <img
      className="media-thumb"
      src={src}
      alt={`Preview of ${plainName(item.file.name)}`}
      onError={() => setBroken(true)}
    />
  );
}

const PHASE_LABEL: Readonly<Record<MediaItem['phase'], string>> = {
  checking: 'Checking…',
  rejected: 'Not accepted',
  converting: 'Converting to MP4…',
  hashing: 'Looking for an earlier upload…',
  uploading: 'Uploading…',
  uploaded: 'Uploaded',
  failed: 'Upload failed',
};

function MediaCard({ item }: { readonly item: MediaItem }) {
  const name = plainName(item.file.name);
  const { remove, retry, convert } = useMediaStore(
    useShallow((s) => ({ remove: s.remove, retry: s.retry, convert: s.convert })),
  );
  const convertible =
    item.phase === 'rejected' && (item.inspection?.checks ?? []).some((c) => c.fix === 'convert');
  const { file, inspection, hash, upload } = item;
  const facts = [
    formatBytes(file.size),
    inspection?.width && inspection.height ? `${inspection.width}×${inspection.height}` : null,
    inspection?.duration_seconds ? `${inspection.duration_seconds.toFixed(1)} s` : null,
  ].filter(Boolean);
  const hashing = item.phase === 'hashing' || (hash !== null && hash.bytes_done < hash.bytes_total);
  const uploadingOrDone = upload !== null && (item.phase === 'uploading' || item.phase === 'uploaded');

  return (
    <li className={`media-card media-card--${item.phase}`} aria-label={name}>
      <Thumb item={item} />
      <div className="media-card__body">
        <div className="media-card__top">
          <span className="media-card__name" title={name}>
            {name}
          </span>
          <button
            type="button"
            className="btn btn--ghost btn--icon btn--small"
            aria-label={`Remove ${name}`}
            onClick={() => void remove(file.id)}
          >
            <IconX size={14} />
          </button>
        </div>
        <span className="media-card__facts truncate">{facts.join(' · ')}</span>
        <span className={`media-card__phase media-card__phase--${item.phase}`} role="status">
          {item.phase === 'uploaded' ? <IconCheck size={13} /> : null}
          {item.phase === 'uploaded' && item.uploaded?.already_uploaded
            ? 'Already uploaded, reused'
            : PHASE_LABEL[item.phase]}
        </span>
        {hashing && hash ? (
          <Progress label={`Reading ${name}`} value={hash.bytes_done} max={hash.bytes_total} />
        ) : null}
        {uploadingOrDone && upload ? (
          <Progress
            label={`Uploading ${name}`}
            value={upload.bytes_sent}
            max={upload.bytes_total}
            state={item.phase === 'uploaded' ? 'done' : 'active'}
          />
        ) : null}
        {inspection && inspection.checks.length > 0 ? (
          <ul className="media-checks" aria-label={`Checks for ${name}`}>
            {inspection.checks.map((c) => (
              <li key={`${c.code}-${c.message}`} className={`media-check media-check--${c.level}`}>
                {c.level === 'error' ? <IconAlert size={12} /> : null}
                {c.message}
              </li>
            ))}
          </ul>
        ) : null}
        {item.phase === 'converting' ? (
          <Progress label={`Converting ${name}`} value={item.convert?.percent ?? 0} max={100} />
        ) : null}
        {convertible ? (
          <div className="btn-row">
            <button
              type="button"
              className="btn btn--small btn--primary"
              onClick={() => void convert(file.id)}
            >
              Convert to MP4
            </button>
            <span className="field__hint">Makes a copy the service accepts; your file stays as it is.</span>
          </div>
        ) : null}
        {item.error ? (
          <p className="media-check media-check--error">
            {describeError(item.error)}{' '}
            <button type="button" className="btn btn--small btn--ghost" onClick={() => void retry(file.id)}>
              Retry
            </button>
          </p>
        ) : null}
      </div>
    </li>
  );
}

export function MediaList() {
  const { items, skipped, dismissSkipped } = useMediaStore(
    useShallow((s) => ({ items: s.items, skipped: s.skipped, dismissSkipped: s.dismissSkipped })),
  );
  return (
    <>
      {skipped.length > 0 ? (
        <div className="alert alert--warning" role="status">
          <div>
            <p className="alert__title">Some files were not added</p>
            <ul className="plain-list">
              {skipped.map((s, i) => (
                <li key={`${s.name}-${i}`}>
                  <strong>{plainName(s.name)}</strong>: {s.reason}
                </li>
              ))}
            </ul>
          </div>
          <button type="button" className="btn btn--ghost btn--small" onClick={dismissSkipped}>
            Dismiss
          </button>
        </div>
      ) : null}
      {items.length > 0 ? (
        <ul className="media-grid" aria-label="Attached media">
          {items.map((it) => (
            <MediaCard key={it.file.id} item={it} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
