import { useState } from 'react';
import { canDo } from '../../../../src-shared/api/delivery-transitions';
import type { Delivery } from '../../../../src-shared/api/posts';
import { RetriedAfter, type RetryOutcome, type RetryWhen } from '../../../../src-shared/ipc/post-groups';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatDateTime, fromLocalInput, toLocalInput } from '../../app/format';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { toast } from '../../stores/use-toast-store';
import { TextInput } from '../../components/Field';

/** What a person reads after a retry: one toast for the lot, the refusals in their own words. */
export function tellRetry(results: readonly RetryOutcome[], name: string): void {
  const bad = results.filter((r) => r.state === 'failed');
  const later = results.filter((r) => r.state === 'queued' || r.state === 'needs_decision');
  if (bad.length > 0) toast('error', `Not retried: ${bad[0]!.error ?? 'the service refused it.'}`);
  else if (later.length > 0)
    toast('warning', 'The retry is saved on this computer and is sent as soon as the service answers.');
  else
    toast('success', results.length === 1 ? `Retried on ${name}.` : `Retried ${results.length} deliveries.`);
}

/**
 * "Retry" on a failed delivery's row: now, at a chosen time, or at its account's next queue slot. The same post is
 * made again for that account, exactly once (the host's outbox), and the failed delivery leaves once it is.
 */
export function RetryDelivery({
  postId,
  delivery: d,
  name,
}: {
  readonly postId: string;
  readonly delivery: Delivery;
  readonly name: string;
}) {
  const retry = usePostGroupsStore((s) => s.retryDeliveries);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [at, setAt] = useState(() => toLocalInput(new Date(Date.now() + 3_600_000)));
  if (!canDo(d.status, 'retry')) return null;
  const run = async (when: RetryWhen) => {
    setBusy(true);
    const r = await retry(postId, [d.id], when);
    setBusy(false);
    if (!r.ok) toast('error', `Not retried: ${describeError(r.error)}`);
    else {
      setOpen(false);
      tellRetry(r.value, name);
    }
  };
  if (!open)
    return (
      <button
        type="button"
        className="btn btn--small btn--primary"
        aria-label={`Retry the ${name} delivery`}
        onClick={() => setOpen(true)}
      >
        Retry
      </button>
    );
  const chosen = fromLocalInput(at);
  return (
    <span className="btn-row retry-choices" role="group" aria-label={`Retry the ${name} delivery`}>
      <button
        type="button"
        className="btn btn--small btn--primary"
        disabled={busy}
        onClick={() => void run({ kind: 'now' })}
      >
        Retry now
      </button>
      <TextInput
        id={`retry-at-${d.id}`}
        type="datetime-local"
        aria-label="Retry at"
        value={at}
        onValue={setAt}
      />
      <button
        type="button"
        className="btn btn--small"
        disabled={busy || !chosen}
        onClick={() => chosen && void run({ kind: 'at', at: chosen })}
      >
        Retry at this time
      </button>
      <button
        type="button"
        className="btn btn--small"
        disabled={busy}
        onClick={() => void run({ kind: 'queue' })}
      >
        Retry into the queue
      </button>
      <button
        type="button"
        className="btn btn--small btn--ghost"
        disabled={busy}
        onClick={() => setOpen(false)}
      >
        Keep it
      </button>
    </span>
  );
}

/** A delivery made by a retry keeps the failure it replaced in its history. */
export function RetriedNote({ delivery }: { readonly delivery: Delivery }) {
  const parsed = RetriedAfter.safeParse((delivery as { retried_after?: unknown }).retried_after);
  if (!parsed.success) return null;
  const { reason, failed_at } = parsed.data;
  return (
    <span className="post-detail__history faint">
      Retried after it failed on {formatDateTime(failed_at)}:{' '}
      {plainName(reason ?? 'the service gave no reason.')}
    </span>
  );
}
