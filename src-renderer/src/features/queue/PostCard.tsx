import { useState } from 'react';
import { PlatformMark } from '../../components/PlatformMark';
import { POST_DRAG_TYPE } from './drag';
import { MoveDialog } from './MoveDialog';
import { useQueueContext } from './queue-context';
import type { CellPost } from './week-grid';

/**
 * A queued post in its slot: dragged to another slot or to the top; or, from the keyboard, moved with its
 * Move… menu (drag alone is not for everyone).
 */
export function PostCard({ post }: { readonly post: CellPost }) {
  const { setDragged } = useQueueContext();
  const [moving, setMoving] = useState(false);
  const caption = post.caption.trim() || '(no caption)';
  return (
    <article
      className="queue-post"
      draggable
      aria-label={`Queued post: ${caption}`}
      onDragStart={(e) => {
        e.dataTransfer.setData(POST_DRAG_TYPE, post.post_id);
        e.dataTransfer.effectAllowed = 'move';
        setDragged(post);
      }}
      onDragEnd={() => setDragged(null)}
    >
      <p className="queue-post__caption">{caption}</p>
      <div className="row row--wrap row--ends queue-post__foot">
        <span className="queue-post__marks">
          {[...new Set(post.platforms)].map((p) => (
            <PlatformMark key={p} platform={p} />
          ))}
        </span>
        <button
          type="button"
          className="btn btn--small btn--ghost queue-post__move"
          aria-label={`Move… ${caption}`}
          onClick={() => setMoving(true)}
        >
          Move…
        </button>
      </div>
      {moving ? <MoveDialog post={post} caption={caption} onClose={() => setMoving(false)} /> : null}
    </article>
  );
}
