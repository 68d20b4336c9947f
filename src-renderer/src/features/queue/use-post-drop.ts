import { useState, type DragEvent } from 'react';
import { carriesPost } from './drag';
import { useQueueContext } from './queue-context';
import type { CellPost } from './week-grid';

/**
 * A drop target for the queued post being dragged: whether it may land here (`active`), whether it hovers here
 * (`over`), and the handlers that take it and hand it to `onPost`. Both the week's slots and the top of the
 * queue are made of this.
 */
export function usePostDrop(accepts: (post: CellPost) => boolean, onPost: (post: CellPost) => void) {
  const { dragged, setDragged } = useQueueContext();
  const [over, setOver] = useState(false);
  const active = dragged !== null && accepts(dragged);
  const handlers = {
    onDragOver: (e: DragEvent) => {
      if (!carriesPost(e) || !active) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      const post = dragged;
      setDragged(null);
      if (post && accepts(post)) onPost(post);
    },
  };
  return { active, over, handlers };
}
