import { useQueueContext } from './queue-context';
import { usePostDrop } from './use-post-drop';
import { useQueueMove } from './use-queue-move';

/** Where a dragged post goes to the top of the queue (the keyboard way is each post's Move… menu). */
export function TopDropZone() {
  const { upcoming } = useQueueContext();
  const { moveTop } = useQueueMove();
  const drop = usePostDrop(
    () => true,
    (post) => void moveTop(post, upcoming),
  );
  return (
    <div
      className={`queue-top${drop.over ? ' queue-top--over' : ''}${drop.active ? ' queue-top--active' : ''}`}
      role="region"
      aria-label="Top of the queue"
      {...drop.handlers}
    >
      Drop a post here to move it to the top of the queue
    </div>
  );
}
