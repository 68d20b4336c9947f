import { formatDateTime } from '../../app/format';
import { AccountChip } from './AccountChip';
import { PostCard } from './PostCard';
import { usePostDrop } from './use-post-drop';
import { useQueueMove } from './use-queue-move';
import { canDrop, type GridCell } from './week-grid';

/** One slot of the week: who posts then, the post that fills it (or "Free"), and a drop target for a dragged post. */
export function SlotCell({ cell }: { readonly cell: GridCell }) {
  const { moveTo } = useQueueMove();
  const drop = usePostDrop(
    (post) => canDrop(post, cell),
    (post) => {
      if (cell.at) void moveTo(post, cell.at);
    },
  );
  if (!cell.at) return <td className="queue-grid__cell queue-grid__cell--none" />;
  const at = cell.at;
  const when = formatDateTime(at);
  return (
    <td
      className={`queue-grid__cell${drop.active ? ' queue-grid__cell--droppable' : ''}${drop.over ? ' queue-grid__cell--over' : ''}`}
      {...drop.handlers}
    >
      <div className="queue-slot" role="group" aria-label={when} data-at={at}>
        <ul className="queue-slot__accounts" aria-label={`Accounts posting ${when}`}>
          {cell.accounts.map((a) => (
            <AccountChip key={a.account_id} entry={a} when={when} />
          ))}
        </ul>
        {cell.posts.length === 0 ? (
          <span className="queue-slot__free">Free</span>
        ) : (
          cell.posts.map((p) => <PostCard key={p.post_id} post={p} />)
        )}
      </div>
    </td>
  );
}
