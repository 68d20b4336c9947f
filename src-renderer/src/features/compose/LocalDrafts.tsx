import { useShallow } from 'zustand/react/shallow';
import { plainName } from '../../app/bidi';
import { formatRelative, plural } from '../../app/format';
import { ErrorAlert } from '../../components/states';
import { useComposeStore } from '../../stores/use-compose-store';

/**
 * Posts started here and not sent: kept on this computer for this connection until sent or discarded.
 * The one being written is not listed; "New post" puts it here.
 */
export function LocalDrafts() {
  const { drafts, current, open, discard } = useComposeStore(
    useShallow((s) => ({ drafts: s.drafts, current: s.draftId, open: s.open, discard: s.discard })),
  );
  const others = (drafts.data ?? []).filter((d) => d.id !== current);
  return (
    <section className="card" aria-labelledby="compose-drafts-title">
      <div className="card__header">
        <h2 id="compose-drafts-title">Local drafts</h2>
        <span className="muted">{others.length > 0 ? others.length : null}</span>
      </div>
      <div className="card__body form-stack">
        {drafts.error ? <ErrorAlert error={drafts.error} title="The local drafts could not be read" /> : null}
        {others.length === 0 ? (
          <p className="muted">
            Posts you start and do not send are kept here, on this computer. Press N or choose New post to
            start another.
          </p>
        ) : (
          <ul className="list-stack" aria-label="Local drafts">
            {others.map((d) => {
              const title = d.caption.trim() ? plainName(d.caption) : '(no text yet)';
              return (
                <li key={d.id} className="row" aria-label={title}>
                  <span className="local-draft__text">
                    <span className="local-draft__caption" title={title}>
                      {title}
                    </span>
                    <span className="field__hint">
                      {plural(d.account_count, 'account')} · {plural(d.media_count, 'file')} · edited{' '}
                      {formatRelative(d.updated_at)}
                    </span>
                  </span>
                  <button type="button" className="btn btn--small" onClick={() => void open(d.id)}>
                    Continue
                  </button>
                  <button
                    type="button"
                    className="btn btn--small btn--ghost"
                    aria-label={`Discard the draft “${title.slice(0, 40)}”`}
                    onClick={() => void discard(d.id)}
                  >
                    Discard
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
