import { useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import { LIMITS } from '../../../../src-shared/api/limits';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { BridgeError } from '../../../../src-shared/ipc';
import { formatDateTime, fromLocalInput, localZone, toLocalInput } from '../../app/format';
import { hrefOf } from '../../app/router';
import { PLATFORM_META } from '../../app/platforms';
import { toggled } from '../../app/toggled';
import { AccountCheckboxes } from '../../components/AccountCheckboxes';
import { ActionButton } from '../../components/ActionButton';
import { useLinkAllowed } from '../../components/ExternalLink';
import { LabeledField, TextInput } from '../../components/Field';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { ErrorAlert } from '../../components/states';
import type { PostChange } from '../../stores/use-posts-store';
import { offersOn, whyNotOn } from './delivery-actions';
import { WhyNot } from './WhyNot';

export type Action = 'caption' | 'reschedule' | 'cancel' | 'addTargets' | 'delete';

/** What every part of the post dialog shares: the delivery, how far a change reaches, and how to make one. */
export interface DialogContext {
  readonly delivery: Delivery;
  /** How many deliveries a change to the post reaches, and the words for them. */
  readonly reach: number;
  readonly all: string;
  readonly busy: Action | null;
  readonly error: { readonly action: Action; readonly error: Readonly<BridgeError> } | null;
  /** Makes the change (`null`: deletes the delivery), then says `done` and closes the dialog. */
  readonly run: (action: Action, change: PostChange | null, done: string) => Promise<void>;
}

/** The account, when the delivery goes out or went out, its status, and why its last attempt failed. */
export function DialogHead({
  delivery,
  account,
}: {
  readonly delivery: Delivery;
  readonly account?: Account;
}) {
  return (
    <>
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
      {!offersOn(delivery, 'edit') ? (
        <p className="alert" role="note">
          {whyNotOn(delivery, 'edit')}
        </p>
      ) : null}
    </>
  );
}

/** The caption, counted against the service's limit; it belongs to the post, so saving reaches every delivery. */
export function CaptionField({
  ctx,
  caption,
  onCaption,
}: {
  readonly ctx: DialogContext;
  readonly caption: string;
  readonly onCaption: (caption: string) => void;
}) {
  const { delivery, reach, all, busy, error, run } = ctx;
  return (
    <LabeledField id="post-caption" label="Caption">
      <textarea
        id="post-caption"
        className="textarea"
        value={caption}
        onChange={(e) => onCaption(e.target.value)}
        aria-invalid={caption.length > LIMITS.captionLength}
      />
      <div className="btn-row">
        <span className="field__hint tabular">
          {caption.length.toLocaleString()} / {LIMITS.captionLength.toLocaleString()}
        </span>
        <span className="spacer" />
        <ActionButton
          busy={busy !== null || caption === delivery.caption || caption.length > LIMITS.captionLength}
          onRun={() =>
            void run(
              'caption',
              { kind: 'caption', caption },
              reach > 1 ? `Caption saved on ${all}.` : 'Caption saved.',
            )
          }
        >
          {busy === 'caption' ? 'Saving…' : reach > 1 ? `Save caption for all ${reach}` : 'Save caption'}
        </ActionButton>
      </div>
      {reach > 1 ? (
        <span className="field__hint">The caption belongs to the post: saving it changes {all}.</span>
      ) : null}
      {error?.action === 'caption' ? <ErrorAlert error={error.error} context="update" /> : null}
    </LabeledField>
  );
}

/** The time: a draft is scheduled, a scheduled post moves (with every still-scheduled delivery). */
export function WhenField({ ctx, now }: { readonly ctx: DialogContext; readonly now: number }) {
  const { delivery, busy, error, run } = ctx;
  const [localAt, setLocalAt] = useState(() =>
    toLocalInput(delivery.scheduled_at ?? new Date(Date.now() + 3_600_000).toISOString()),
  );
  const schedulable = offersOn(delivery, 'schedule');
  const scheduledAt = fromLocalInput(localAt);
  const future = scheduledAt !== null && Date.parse(scheduledAt) > now;
  return (
    <LabeledField id="post-when" label={`${schedulable ? 'Schedule for' : 'Reschedule to'} (${localZone()})`}>
      <div className="btn-row">
        <TextInput
          id="post-when"
          className="post-dialog__when"
          type="datetime-local"
          value={localAt}
          onValue={setLocalAt}
        />
        <ActionButton
          busy={busy !== null || !future}
          onRun={() =>
            scheduledAt &&
            void run(
              'reschedule',
              { kind: 'reschedule', scheduledAt, schedule: schedulable },
              `Scheduled for ${formatDateTime(scheduledAt)}.`,
            )
          }
        >
          {busy === 'reschedule' ? 'Saving…' : schedulable ? 'Schedule' : 'Reschedule'}
        </ActionButton>
      </div>
      {!future ? <span className="field__hint">Pick a time in the future.</span> : null}
      <span className="field__hint">Every still-scheduled delivery of this post moves together.</span>
      {error?.action === 'reschedule' ? <ErrorAlert error={error.error} context="update" /> : null}
    </LabeledField>
  );
}

/** Accounts the post does not go to yet (never one it already reaches), added in one change. */
export function AddAccounts({
  ctx,
  candidates,
}: {
  readonly ctx: DialogContext;
  readonly candidates: readonly Account[];
}) {
  const { busy, error, run } = ctx;
  const [extra, setExtra] = useState<ReadonlySet<string>>(new Set());
  return (
    <fieldset className="stack post-dialog__targets">
      <legend className="field__label">Add accounts</legend>
      <div className="post-dialog__target-list">
        <AccountCheckboxes
          accounts={candidates}
          selected={extra}
          onToggle={(id) => setExtra(toggled(extra, id))}
          mark="named"
        />
      </div>
      <div className="btn-row">
        <ActionButton
          busy={busy !== null || extra.size === 0 || extra.size > LIMITS.addTargetsPerUpdate}
          onRun={() =>
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
        </ActionButton>
      </div>
      {error?.action === 'addTargets' ? <ErrorAlert error={error.error} context="update" /> : null}
    </fieldset>
  );
}

/** Figures, the published post, then cancel to draft (the whole post) and delete (this delivery alone). */
export function DialogFooter({
  ctx,
  where,
  onClose,
}: {
  readonly ctx: DialogContext;
  /** The account this delivery goes to, in words. */
  readonly where: string;
  readonly onClose: () => void;
}) {
  const { delivery, reach, all, busy, run } = ctx;
  return (
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
      {offersOn(delivery, 'cancel') ? (
        <span title={reach > 1 ? `Cancels ${all}, not only this one.` : undefined}>
          <ActionButton
            busy={busy !== null}
            onRun={() =>
              void run(
                'cancel',
                { kind: 'cancel' },
                reach > 1 ? `Moved ${all} back to drafts.` : 'Moved back to drafts.',
              )
            }
          >
            {busy === 'cancel'
              ? 'Cancelling…'
              : reach > 1
                ? `Cancel all ${reach} to draft`
                : 'Cancel to draft'}
          </ActionButton>
        </span>
      ) : null}
      {offersOn(delivery, 'delete') ? (
        <ActionButton
          variant="danger"
          busy={busy !== null}
          confirm={{
            question: (
              <span className="muted">
                Delete the delivery to {where}?{' '}
                {reach > 1
                  ? `The post's ${reach - 1} other ${reach === 2 ? 'delivery stays' : 'deliveries stay'}.`
                  : ''}
              </span>
            ),
            yes: busy === 'delete' ? 'Deleting…' : 'Yes, delete',
            keep: 'Keep',
          }}
          onRun={() =>
            void run(
              'delete',
              null,
              reach > 1 ? `The delivery to ${where} was deleted; the post's others stay.` : 'Post deleted.',
            )
          }
        >
          Delete
        </ActionButton>
      ) : (
        <WhyNot delivery={delivery} action="delete" />
      )}
    </div>
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
