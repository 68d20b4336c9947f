import { useEffect, useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatDateTime } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { NotConfirmedBadge } from '../../components/NotConfirmed';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { usePostsStore } from '../../stores/use-posts-store';
import './posts.css';
import { RetriedNote, RetryDelivery } from './RetryFailed';
import { toast } from '../../stores/use-toast-store';
import { ActionButton } from '../../components/ActionButton';
import { offersOn, whyNotOnPost } from './delivery-actions';
import { WhyNot } from './WhyNot';

/**
 * The post's first media item at row size: the picture main fetched (a `data:` URL), a play mark for a video, or a
 * plain tile while it loads or when there is no picture to show. Nothing when the post has no media.
 */
export function PostThumb({
  postId,
  count,
  size = 'md',
}: {
  readonly postId: string;
  readonly count: number;
  readonly size?: 'md' | 'small';
}) {
  const thumb = usePostGroupsStore((s) => s.thumbs.get(postId));
  const ask = usePostGroupsStore((s) => s.thumbnail);
  useEffect(() => {
    if (count > 0) ask(postId);
  }, [ask, postId, count]);
  if (count === 0) return null;
  const t = thumb === 'loading' ? undefined : thumb;
  const label = count === 1 ? (t?.kind === 'video' ? 'a video' : '1 media item') : `${count} media items`;
  return (
    <span
      className={`post-thumb${size === 'small' ? ' post-thumb--small' : ''}`}
      role="img"
      aria-label={label}
    >
      {t?.data_url ? (
        // Drawn at its box's size and decoded off the main thread, so a scroll never waits on a picture.
        <img
          src={t.data_url}
          alt=""
          className="post-thumb__img"
          width={size === 'small' ? 16 : 40}
          height={size === 'small' ? 16 : 40}
          decoding="async"
          loading="lazy"
        />
      ) : (
        <span aria-hidden="true">{t?.kind === 'video' ? '▶' : '▣'}</span>
      )}
      {count > 1 && size !== 'small' ? (
        <span className="post-thumb__count" aria-hidden="true">
          {count}
        </span>
      ) : null}
    </span>
  );
}

export const captionOf = (g: PostGroup): string => g.deliveries[0]?.caption ?? '';

const whenOf = (d: Delivery): string | null =>
  d.status === 'posted' ? (d.published_at ?? d.scheduled_at) : d.scheduled_at;

/** The post's time: the earliest of its deliveries' times. */
export function whenOfPost(g: PostGroup): string | null {
  let best: string | null = null;
  for (const d of g.deliveries) {
    const w = whenOf(d);
    if (w && (best === null || Date.parse(w) < Date.parse(best))) best = w;
  }
  return best;
}

const STATUS_WORDS: Readonly<Record<string, string>> = {
  retry_scheduled: 'retrying',
};

/** One target: its platform, account and own status; a failed one says why in its tooltip and name. */
export function TargetChip({
  delivery: d,
  account,
}: {
  readonly delivery: Delivery;
  readonly account: Account | undefined;
}) {
  const name = account?.name ?? PLATFORM_META[d.platform].label;
  const status = STATUS_WORDS[d.status] ?? d.status.replace(/_/g, ' ');
  const reason = d.status === 'failed' && d.last_error ? plainName(d.last_error) : null;
  return (
    <span
      className={`target-chip target-chip--${d.status}`}
      title={reason ? `${name}: failed: ${reason}` : `${name}: ${status}`}
      data-testid="target-chip"
    >
      <PlatformMark platform={d.platform} decorative />
      <span className="target-chip__name">{name}</span>
      <span className="target-chip__status">{status}</span>
      <NotConfirmedBadge id={d.id} status={d.status} />
    </span>
  );
}

/**
 * The deliveries of one post, each with what applies to it alone (retry, delete). What applies to the whole post
 * (caption, time, cancel to draft, duplicate, publish now) is in the post's "…" menu.
 */
export function PostDetail({
  group: g,
  accounts,
}: {
  readonly group: PostGroup;
  readonly accounts: ReadonlyMap<string, Account>;
}) {
  const remove = usePostsStore((s) => s.remove);
  const [busy, setBusy] = useState(false);
  const notEditable = whyNotOnPost(g.deliveries, 'edit');
  const short = captionOf(g).slice(0, 40) || 'no caption';

  const deleteOne = async (id: string, name: string) => {
    setBusy(true);
    const r = await remove(id);
    setBusy(false);
    if (!r.ok) toast('error', `Not deleted: ${describeError(r.error, 'delete')}`);
    else toast('success', `Deleted the ${name} delivery.`);
  };

  return (
    <section className="post-detail" aria-label={`Deliveries of ${short}`}>
      <p className="post-detail__note">
        <strong>Whole post</strong> (the “…” menu): the caption, the time and “Cancel to draft” change every
        delivery still scheduled. <strong>One delivery:</strong> “Delete” removes only that account’s copy.
      </p>
      {notEditable ? (
        <p className="post-detail__note" role="note">
          {notEditable}
        </p>
      ) : null}
      <ul className="post-detail__list" aria-label="Deliveries">
        {g.deliveries.map((d) => {
          const account = accounts.get(d.social_account_id);
          const name = account?.name ?? PLATFORM_META[d.platform].label;
          const when = whenOf(d);
          return (
            <li key={d.id} className="post-detail__item">
              <PlatformMark platform={d.platform} />
              <span className="post-detail__name">{name}</span>
              <StatusBadge status={d.status} />
              <span className="post-detail__when tabular">{when ? formatDateTime(when) : '—'}</span>
              <span className="post-detail__reason">
                {d.status === 'failed' ? plainName(d.last_error ?? 'The service gave no reason.') : ''}
                <RetriedNote delivery={d} />
              </span>
              <span className="btn-row">
                <RetryDelivery postId={g.post_id} delivery={d} name={name} />
                {offersOn(d, 'delete') ? (
                  <ActionButton
                    variant="ghost"
                    busy={busy}
                    label={`Delete the ${name} delivery`}
                    confirm={{ question: null, yes: 'Yes, delete', keep: 'Keep' }}
                    onRun={() => void deleteOne(d.id, name)}
                  >
                    Delete
                  </ActionButton>
                ) : (
                  <WhyNot delivery={d} action="delete" className="post-detail__why" />
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
