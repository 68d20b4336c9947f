import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import { LIMITS } from '../../../../src-shared/api/limits';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { BridgeError } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatDateTime, fromLocalInput, localZone, toLocalInput } from '../../app/format';
import { useServiceNow } from '../../app/use-now';
import { hrefOf } from '../../app/router';
import { PLATFORM_META } from '../../app/platforms';
import { Dialog } from '../../components/Dialog';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { ErrorAlert } from '../../components/states';
import { PostPreviews } from '../compose/PostPreviews';
import { useLinkAllowed } from '../../components/ExternalLink';
import { usePostsStore, type PostChange } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import { offersOn, whyNotOn } from './delivery-actions';

type Action = 'caption' | 'reschedule' | 'cancel' | 'addTargets' | 'delete';

/** One delivery: edit its caption, reschedule, cancel to draft, add targets, or delete it. */
export function PostDialog({
  delivery,
  accounts,
  onClose,
}: {
  readonly delivery: Delivery;
  readonly accounts: readonly Account[];
  readonly onClose: () => void;
}) {
  const { update, remove, deliveriesOf } = usePostsStore(
    useShallow((s) => ({ update: s.update, remove: s.remove, deliveriesOf: s.deliveriesOf })),
  );
  // The post's every delivery, whatever the list shows: what a caption or a cancel reaches, and which
  // accounts it goes to already (never offered again).
  const [post, setPost] = useState<readonly Delivery[] | null>(null);
  useEffect(() => {
    let live = true;
    void deliveriesOf(delivery.post_id).then((r) => live && setPost(r.ok ? r.value : [delivery]));
    return () => {
      live = false;
    };
  }, [deliveriesOf, delivery]);
  const [caption, setCaption] = useState(delivery.caption);
  const [localAt, setLocalAt] = useState(() =>
    toLocalInput(delivery.scheduled_at ?? new Date(Date.now() + 3_600_000).toISOString()),
  );
  const [extra, setExtra] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<{ action: Action; error: Readonly<BridgeError> } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const now = useServiceNow();

  const account = accounts.find((a) => a.id === delivery.social_account_id);
  // What the transition table allows this delivery; a missing action says why where it would have been.
  const editable = offersOn(delivery, 'edit');
  const schedulable = offersOn(delivery, 'schedule');
  const cancellable = offersOn(delivery, 'cancel');
  const deletable = offersOn(delivery, 'delete');
  const targets = useMemo(
    () => new Set([delivery.social_account_id, ...(post ?? []).map((d) => d.social_account_id)]),
    [delivery, post],
  );
  const candidates = useMemo(
    () =>
      post === null
        ? []
        : accounts.filter((a) => !targets.has(a.id) && !PLATFORM_META[a.platform].postsUnavailable),
    [accounts, targets, post],
  );
  /** How many deliveries a change to the post reaches, and the words for them. */
  const reach = Math.max(1, post?.length ?? 1);
  const all = reach > 1 ? `all ${reach} deliveries of this post` : 'this post';
  const where = account?.name ?? PLATFORM_META[delivery.platform].label;

  const run = async (action: Action, change: PostChange | null, done: string) => {
    setBusy(action);
    setError(null);
    const r = change ? await update(delivery.id, change) : await remove(delivery.id);
    setBusy(null);
    if (!r.ok) {
      setError({ action, error: r.error });
      setConfirmDelete(false);
      return;
    }
    toast('success', done);
    onClose();
  };

  const scheduledAt = fromLocalInput(localAt);
  const future = scheduledAt !== null && Date.parse(scheduledAt) > now;

  return (
    <Dialog open title="Edit post" onClose={onClose} wide>
      <div className="post-dialog__head">
        <PlatformMark platform={delivery.platform} size="lg" />
        <div>
          <p className="post-dialog__account">{account?.name ?? PLATFORM_META[delivery.platform].label}</p>
          <p className="muted">
            {delivery.status === 'posted'
              ? `Published ${formatDateTime(delivery.published_at)}`
              : delivery.scheduled_at
                ? `Scheduled for ${formatDateTime(delivery.scheduled_at)}`
                : 'Not scheduled'}
          </p>
        </div>
        <StatusBadge status={delivery.status} />
      </div>

      {delivery.last_error ? (
        <div className="alert alert--error">
          <div>
            <p className="alert__title">
              Last attempt failed{delivery.attempts ? ` (attempt ${delivery.attempts})` : ''}
            </p>
            <p>{delivery.last_error}</p>
          </div>
        </div>
      ) : null}
      {!editable ? (
        <p className="alert" role="note">
          {whyNotOn(delivery, 'edit')}
        </p>
      ) : null}

      {editable ? (
        <>
          <div className="field">
            <label className="field__label" htmlFor="post-caption">
              Caption
            </label>
            <textarea
              id="post-caption"
              className="textarea"
              value={caption}
              disabled={!editable}
              onChange={(e) => setCaption(e.target.value)}
              aria-invalid={caption.length > LIMITS.captionLength}
            />
            <div className="btn-row">
              <span className="field__hint tabular">
                {caption.length.toLocaleString()} / {LIMITS.captionLength.toLocaleString()}
              </span>
              <span className="spacer" />
              <button
                type="button"
                className="btn btn--small"
                disabled={
                  !editable ||
                  busy !== null ||
                  caption === delivery.caption ||
                  caption.length > LIMITS.captionLength
                }
                onClick={() =>
                  void run(
                    'caption',
                    { kind: 'caption', caption },
                    reach > 1 ? `Caption saved on ${all}.` : 'Caption saved.',
                  )
                }
              >
                {busy === 'caption'
                  ? 'Saving…'
                  : reach > 1
                    ? `Save caption for all ${reach}`
                    : 'Save caption'}
              </button>
            </div>
            {reach > 1 ? (
              <span className="field__hint">The caption belongs to the post: saving it changes {all}.</span>
            ) : null}
            {error?.action === 'caption' ? <ErrorAlert error={error.error} context="update" /> : null}
          </div>
          <PostPreviews caption={caption} deliveries={post ?? [delivery]} />

          <div className="field">
            <label className="field__label" htmlFor="post-when">
              {schedulable ? 'Schedule for' : 'Reschedule to'} ({localZone()})
            </label>
            <div className="btn-row">
              <input
                id="post-when"
                className="input post-dialog__when"
                type="datetime-local"
                value={localAt}
                disabled={!editable}
                onChange={(e) => setLocalAt(e.target.value)}
              />
              <button
                type="button"
                className="btn btn--small"
                disabled={!editable || busy !== null || !future}
                onClick={() =>
                  scheduledAt &&
                  void run(
                    'reschedule',
                    { kind: 'reschedule', scheduledAt, schedule: schedulable },
                    `Scheduled for ${formatDateTime(scheduledAt)}.`,
                  )
                }
              >
                {busy === 'reschedule' ? 'Saving…' : schedulable ? 'Schedule' : 'Reschedule'}
              </button>
            </div>
            {!future ? <span className="field__hint">Pick a time in the future.</span> : null}
            <span className="field__hint">Every still-scheduled delivery of this post moves together.</span>
            {error?.action === 'reschedule' ? <ErrorAlert error={error.error} context="update" /> : null}
          </div>
        </>
      ) : (
        <div className="field">
          <span className="field__label">Caption</span>
          <p className="post-dialog__caption">
            {delivery.caption ? plainName(delivery.caption) : <span className="faint">(no caption)</span>}
          </p>
        </div>
      )}

      {editable && candidates.length > 0 ? (
        <fieldset className="post-dialog__targets">
          <legend className="field__label">Add accounts</legend>
          <div className="post-dialog__target-list">
            {candidates.map((a) => (
              <label key={a.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={extra.has(a.id)}
                  onChange={() => {
                    const next = new Set(extra);
                    if (next.has(a.id)) next.delete(a.id);
                    else next.add(a.id);
                    setExtra(next);
                  }}
                />
                <PlatformMark platform={a.platform} />
                {a.name}
              </label>
            ))}
          </div>
          <div className="btn-row">
            <button
              type="button"
              className="btn btn--small"
              disabled={busy !== null || extra.size === 0 || extra.size > LIMITS.addTargetsPerUpdate}
              onClick={() =>
                void run(
                  'addTargets',
                  {
                    kind: 'addTargets',
                    targets: candidates
                      .filter((a) => extra.has(a.id))
                      .map((a) => ({ social_account_id: a.id, platform: a.platform })),
                  },
                  'Accounts added.',
                )
              }
            >
              {busy === 'addTargets'
                ? 'Adding…'
                : `Add ${extra.size || ''} account${extra.size === 1 ? '' : 's'}`}
            </button>
          </div>
          {error?.action === 'addTargets' ? <ErrorAlert error={error.error} context="update" /> : null}
        </fieldset>
      ) : null}

      {error?.action === 'cancel' ? <ErrorAlert error={error.error} context="update" /> : null}
      {error?.action === 'delete' ? (
        <ErrorAlert error={error.error} context="delete" title="Not deleted" />
      ) : null}

      <div className="post-dialog__footer">
        <a
          className="btn btn--ghost btn--small"
          href={hrefOf('analytics', { post: delivery.post_id })}
          onClick={onClose}
        >
          View figures
        </a>
        {delivery.external_url ? <PublishedLink delivery={delivery} /> : null}
        <span className="spacer" />
        {cancellable ? (
          <button
            type="button"
            className="btn btn--small"
            disabled={busy !== null}
            onClick={() =>
              void run(
                'cancel',
                { kind: 'cancel' },
                reach > 1 ? `Moved ${all} back to drafts.` : 'Moved back to drafts.',
              )
            }
            title={reach > 1 ? `Cancels ${all}, not only this one.` : undefined}
          >
            {busy === 'cancel'
              ? 'Cancelling…'
              : reach > 1
                ? `Cancel all ${reach} to draft`
                : 'Cancel to draft'}
          </button>
        ) : null}
        {!deletable ? (
          <span className="muted" role="note">
            {whyNotOn(delivery, 'delete')}
          </span>
        ) : confirmDelete ? (
          <>
            <span className="muted">
              Delete the delivery to {where}?{' '}
              {reach > 1
                ? `The post's ${reach - 1} other ${reach === 2 ? 'delivery stays' : 'deliveries stay'}.`
                : ''}
            </span>
            <button type="button" className="btn btn--small" onClick={() => setConfirmDelete(false)}>
              Keep
            </button>
            <button
              type="button"
              className="btn btn--small btn--danger"
              disabled={busy !== null}
              onClick={() =>
                void run(
                  'delete',
                  null,
                  reach > 1
                    ? `The delivery to ${where} was deleted; the post's others stay.`
                    : 'Post deleted.',
                )
              }
            >
              {busy === 'delete' ? 'Deleting…' : 'Yes, delete'}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn--small btn--danger" onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        )}
      </div>
    </Dialog>
  );
}

/**
 * Where the platform shows the published post: a link only when it is https on the allowlist; otherwise
 * the address is shown as text, so a hostile `javascript:` or `file:` URL can never be followed.
 */
function PublishedLink({ delivery }: { readonly delivery: Delivery }) {
  const url = delivery.external_url;
  const allowed = useLinkAllowed(url);
  if (!url) return null;
  return allowed ? (
    <a className="post-dialog__url" href={url} target="_blank" rel="noopener noreferrer">
      Open on {PLATFORM_META[delivery.platform].label}
    </a>
  ) : (
    <span className="post-dialog__url link-text">
      Published at <bdi>{url}</bdi>
    </span>
  );
}
