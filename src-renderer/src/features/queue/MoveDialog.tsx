import { useId, useState } from 'react';
import { formatDateTime } from '../../app/format';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/states';
import { useQueueContext } from './queue-context';
import { freeSlotsFor, useQueueMove } from './use-queue-move';
import type { CellPost } from './week-grid';
import { LabeledField } from '../../components/Field';

/** Free slots offered at once: the soonest, enough to choose from without a long list. */
const OFFERED = 40;

/** The keyboard's way to move a queued post: to the top of the queue, or to a free slot picked from a list. */
export function MoveDialog({
  post,
  caption,
  onClose,
}: {
  readonly post: CellPost;
  readonly caption: string;
  readonly onClose: () => void;
}) {
  const { upcoming } = useQueueContext();
  const { moveTo, moveTop, busy, error } = useQueueMove();
  const free = freeSlotsFor(post, upcoming).slice(0, OFFERED);
  const [to, setTo] = useState(free[0] ?? '');
  const selectId = useId();
  const done = (ok: boolean) => {
    if (ok) onClose();
  };
  return (
    <Dialog open title="Move the post" onClose={onClose}>
      <div className="form-stack">
        <p className="queue-move__caption">{caption}</p>
        <p className="muted">
          Now at {formatDateTime(post.at)}. Moving it moves it on every account it goes to.
        </p>
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => void moveTop(post, upcoming).then(done)}
        >
          Move to the top of the queue
        </button>
        <LabeledField id={selectId} label="Or to a free slot">
          <select id={selectId} className="input" value={to} onChange={(e) => setTo(e.target.value)}>
            {free.length === 0 ? <option value="">No free slot</option> : null}
            {free.map((at) => (
              <option key={at} value={at}>
                {formatDateTime(at)}
              </option>
            ))}
          </select>
        </LabeledField>
        <div className="btn-row">
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy || !to}
            onClick={() => void moveTo(post, to).then(done)}
          >
            {busy ? 'Moving…' : 'Move to this slot'}
          </button>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
        {error ? <ErrorAlert error={error} title="The post was not moved" /> : null}
      </div>
    </Dialog>
  );
}
