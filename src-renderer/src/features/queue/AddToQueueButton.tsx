import { useState } from 'react';
import type { BridgeError } from '../../../../src-shared/ipc';
import type { QueueAddRequest } from '../../../../src-shared/ipc/queue';
import { formatDateTime } from '../../app/format';
import { navigate } from '../../app/router';
import { ErrorAlert } from '../../components/states';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';

/**
 * Compose's "Add to queue": the post goes to each account's next free slot (one post per distinct time), then
 * the Queue screen opens. `onQueued` clears the composer.
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const onClick = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await add(request);
    setBusy(false);
    if (!r.ok) return setError(r.error);
    const times = [...new Set(r.value.posts.map((p) => formatDateTime(p.at)))];
    toast('success', `Added to the queue: ${times.join(', ')}.`);
    onQueued();
    navigate('queue');
  };
  return (
    <>
      {error ? <ErrorAlert error={error} title="The post was not added to the queue" /> : null}
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
