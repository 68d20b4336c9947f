import { useState } from 'react';
import { carriesPost } from './drag';
import { useQueueContext } from './queue-context';
import { useQueueMove } from './use-queue-move';

/** Where a dragged post goes to the top of the queue (the keyboard way is each post's Move… menu). */
export function TopDropZone() {
  const { dragged, setDragged, upcoming } = useQueueContext();
  const { moveTop } = useQueueMove();
  const [over, setOver] = useState(false);
  return (
    <div
      className={`queue-top${over ? ' queue-top--over' : ''}${dragged ? ' queue-top--active' : ''}`}
      role="region"
      aria-label="Top of the queue"
      onDragOver={(e) => {
        if (!carriesPost(e) || !dragged) return;
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
        if (post) void moveTop(post, upcoming);
      }}
    >
      Drop a post here to move it to the top of the queue
    </div>
  );
}
