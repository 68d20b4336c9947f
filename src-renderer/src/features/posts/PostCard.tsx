import { memo, useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { Delivery } from '../../../../src-shared/api/posts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { plainName } from '../../app/bidi';
import { formatDateTime } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { ActionButton } from '../../components/ActionButton';
import { MenuButton } from '../../components/MenuButton';
import type { PostFilters } from '../../stores/use-posts-store';
import { offersOnPost } from './delivery-actions';
import { PostDetail, PostThumb, TargetChip, captionOf, whenOfPost } from './PostGroupParts';
import { usePostActions } from './use-post-actions';

export interface PostCardProps {
  readonly group: PostGroup;
  readonly filters: PostFilters;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly selected: boolean;
  readonly expanded: boolean;
  readonly onToggle: (postId: string, range: boolean) => void;
  readonly onExpand: (postId: string) => void;
  readonly onOpen: (deliveryId: string) => void;
}

/**
 * One post of the timeline: its time, caption and picture, one chip per account (wrapping, never cut), "Edit"
 * (or "Open" once nothing can change), and the "…" menu with the rest. Memoised: scrolling renders only the
 * cards that come into view, and a change to one post renders that card alone.
 */
export const PostCard = memo(function PostCard({
  group: g,
  filters,
  accounts,
  selected,
  expanded,
  onToggle,
  onExpand,
  onOpen,
}: PostCardProps) {
  const caption = captionOf(g);
  const when = whenOfPost(g);
  const first = g.deliveries[0] as Delivery;
  // Edit opens the delivery the filters matched (on X's list, the X delivery), else the first.
  const matched =
    g.deliveries.find(
      (d) =>
        (filters.platform === 'all' || d.platform === filters.platform) &&
        (filters.status === 'all' || d.status === filters.status),
    ) ?? first;
  const media = first.media ?? [];
  const short = caption.slice(0, 40) || 'no caption';
  // A post nothing of which can change any more opens to be read, not edited (the transition table).
  const verb = offersOnPost(g.deliveries, 'edit') ? 'Edit' : 'Open';
  const { items, asking, cancelAsk, busy } = usePostActions(g, onOpen, onExpand, expanded);
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <article
      className={`card stack post-card${selected ? ' is-selected' : ''}${menuOpen ? ' is-menu-open' : ''}`}
      aria-label={`Post: ${short}`}
      data-testid="post-card"
      onDoubleClick={() => onOpen(matched.id)}
    >
      <div className="row post-card__head">
        <input
          type="checkbox"
          className="post-card__check"
          checked={selected}
          aria-label={`Select post: ${short}`}
          onChange={(e) => onToggle(g.post_id, (e.nativeEvent as MouseEvent).shiftKey === true)}
        />
        {when ? (
          <time className="post-card__when tabular" dateTime={when}>
            {formatDateTime(when)}
          </time>
        ) : (
          <span className="post-card__when faint">No time set</span>
        )}
        <span className="row post-card__actions">
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={`${verb} post: ${short} (${g.deliveries.map((d) => PLATFORM_META[d.platform].label).join(', ')})`}
            onClick={() => onOpen(matched.id)}
          >
            {verb}
          </button>
          <MenuButton label={`Actions for post: ${short}`} items={items} onOpenChange={setMenuOpen} />
        </span>
      </div>
      <div className="row row--top post-card__body">
        <PostThumb postId={g.post_id} count={media.length} />
        <p className="post-card__caption">
          {caption ? plainName(caption) : <span className="faint">(no caption)</span>}
        </p>
      </div>
      <div className="post-card__chips">
        {g.deliveries.map((d) => (
          <TargetChip key={d.id} delivery={d} account={accounts.get(d.social_account_id)} />
        ))}
        <button
          type="button"
          className="btn btn--small btn--ghost post-card__expand"
          aria-expanded={expanded}
          onClick={() => onExpand(g.post_id)}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {g.deliveries.length}
          <span className="visually-hidden">
            {' '}
            {g.deliveries.length === 1 ? 'delivery' : 'deliveries'}: {short}
          </span>
        </button>
      </div>
      {asking ? (
        <div className="row row--wrap post-card__confirm" role="group" aria-label={asking.question}>
          <span>{asking.question}</span>
          <ActionButton variant="primary" busy={busy} onRun={asking.run}>
            {asking.yes}
          </ActionButton>
          <ActionButton variant="ghost" onRun={cancelAsk}>
            Keep it
          </ActionButton>
        </div>
      ) : null}
      {expanded ? <PostDetail group={g} accounts={accounts} /> : null}
    </article>
  );
});
