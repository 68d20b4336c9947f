import { useState } from 'react';
import { formatDateTime } from '../../app/format';
import { AccountChip } from './AccountChip';
import { carriesPost } from './drag';
import { PostCard } from './PostCard';
import { useQueueContext } from './queue-context';
import { useQueueMove } from './use-queue-move';
import { canDrop, type GridCell } from './week-grid';

/** One slot of the week: who posts then, the post that fills it (or "Free"), and a drop target for a dragged post. */
export function SlotCell({ cell }: { readonly cell: GridCell }) {
  const { dragged, setDragged } = useQueueContext();
  const { moveTo } = useQueueMove();
  const [over, setOver] = useState(false);
  if (!cell.at) return <td className="queue-grid__cell queue-grid__cell--none" />;
  const at = cell.at;
  const droppable = dragged !== null && canDrop(dragged, cell);
  const when = formatDateTime(at);
  return (
    <td
      className={`queue-grid__cell${droppable ? ' queue-grid__cell--droppable' : ''}${over ? ' queue-grid__cell--over' : ''}`}
      onDragOver={(e) => {
        if (!carriesPost(e) || !droppable) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const post = dragged;
        setDragged(null);
        if (post && canDrop(post, cell)) void moveTo(post, at);
      }}
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
