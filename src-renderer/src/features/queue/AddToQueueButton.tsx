import { useState } from 'react';
import type { BridgeError } from '../../../../src-shared/ipc';
import type { QueueAddRequest, QueuePlan } from '../../../../src-shared/ipc/queue';
import { formatDateTime } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { navigate } from '../../app/router';
import { ErrorAlert } from '../../components/states';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';

const platformsOf = (targets: QueuePlan['posts'][number]['targets']): string =>
  targets.map((t) => PLATFORM_META[t.platform].label).join(', ');

/**
 * Compose's "Add to queue": the whole post goes to the earliest slot free for every account it goes to, so it stays
 * one post. When those accounts share no free slot (their posting times differ), the post would become one post per
 * time: that is said plainly, with the times, and done only when the person agrees. Then the Queue screen opens.
 * `onQueued` clears the composer.
 */
export function AddToQueueButton({
  request,
  disabled,
  onQueued,
}: {
  readonly request: QueueAddRequest;
  readonly disabled: boolean;
  readonly onQueued: () => void;
}) {
  const add = useQueueStore((s) => s.add);
  const plan = useQueueStore((s) => s.plan);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const [split, setSplit] = useState<QueuePlan['posts'] | null>(null);
  const place = async () => {
    setSplit(null);
    setBusy(true);
    const r = await add(request);
    setBusy(false);
    if (!r.ok) return setError(r.error);
    const times = [...new Set(r.value.posts.map((p) => formatDateTime(p.at)))];
    toast('success', `Added to the queue: ${times.join(', ')}.`);
    onQueued();
    navigate('queue');
  };
  const onClick = async () => {
    if (busy) return;
    setError(null);
    setBusy(true);
    const where = await plan(request.targets);
    setBusy(false);
    if (!where.ok) return setError(where.error);
    if (where.value.posts.length > 1) return setSplit(where.value.posts);
    await place();
  };
  return (
    <>
      {error ? <ErrorAlert error={error} title="The post was not added to the queue" /> : null}
      {split ? (
        <div className="alert alert--warning" role="alertdialog" aria-labelledby="queue-split-title">
          <p className="alert__title" id="queue-split-title">
            This post will be split into {split.length} posts
          </p>
          <p>
            Its accounts have no free queue slot in common, so each goes at its own next slot, as a separate
            post that moves on its own:
          </p>
          <ul aria-label="Where each part goes">
            {split.map((p) => (
              <li key={p.at}>
                {platformsOf(p.targets)} at {formatDateTime(p.at)}
              </li>
            ))}
          </ul>
          <p>To keep it one post, give these accounts a posting time in common on the Queue screen.</p>
          <span className="btn-row">
            <button type="button" className="btn btn--small btn--primary" onClick={() => void place()}>
              Split and add
            </button>
            <button type="button" className="btn btn--small btn--ghost" onClick={() => setSplit(null)}>
              Cancel
            </button>
          </span>
        </div>
      ) : null}
      <button
        type="button"
        className="btn compose__submit"
        disabled={disabled || busy}
        onClick={() => void onClick()}
      >
        {busy ? 'Adding…' : 'Add to queue'}
      </button>
    </>
  );
}
