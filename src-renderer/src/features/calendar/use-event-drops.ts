import type { EventDropArg, EventHoveringArg } from '@fullcalendar/core';
import type { DropArg } from '@fullcalendar/interaction';
import { useCallback, useRef } from 'react';
import type { Delivery } from '../../../../src-shared/api/posts';
import { describeError } from '../../app/describe-error';
import { formatDateTime, fromLocalInput, toLocalInput } from '../../app/format';
import { serviceNow } from '../../app/use-now';
import { useCalendarStore } from '../../stores/use-calendar-store';
import { usePostsStore } from '../../stores/use-posts-store';
import { toast } from '../../stores/use-toast-store';
import { draggable } from './calendar-events';
import { setPreview, type Preview } from './EventPreview';

/** The time a draft dropped on a day (month view, no time) is scheduled at, in the shown zone. */
const DEFAULT_TIME = '09:00';

/**
 * What dragging does: a post moved in the grid is rescheduled, a draft dropped from the side list is
 * scheduled; both only into the future by the service's clock. The calendar and the side list follow the
 * change itself (`posts:didChange`), so nothing here reloads.
 */
export function useEventDrops() {
  const reschedule = useCalendarStore((s) => s.reschedule);
  const update = usePostsStore((s) => s.update);

  const onDrop = useCallback(
    async (arg: EventDropArg) => {
      const start = arg.event.start;
      if (!start || start.getTime() <= serviceNow()) {
        arg.revert();
        toast('warning', 'Posts can only move to a time in the future.');
        return;
      }
      const group = arg.event.extendedProps.group as { deliveries: Delivery[] };
      const id = group.deliveries.find(draggable)?.id ?? arg.event.id;
      const r = await reschedule(id, start.toISOString());
      if (!r.ok) {
        arg.revert();
        toast('error', `Not moved: ${describeError(r.error, 'update')}`);
        return;
      }
      toast('success', `Rescheduled to ${formatDateTime(start.toISOString())}.`);
    },
    [reschedule],
  );

  const onExternalDrop = useCallback(
    async (arg: DropArg) => {
      const id = arg.draggedEl.dataset.deliveryId;
      if (!id) return;
      // A day without a time (month view) is scheduled at 09:00 in the shown zone.
      const day = arg.allDay
        ? fromLocalInput(`${toLocalInput(arg.date).slice(0, 10)}T${DEFAULT_TIME}`)
        : null;
      const at = day ? new Date(day) : new Date(arg.date);
      if (at.getTime() <= serviceNow()) {
        toast('warning', 'Drafts can only be scheduled in the future.');
        return;
      }
      const r = await update(id, { kind: 'reschedule', scheduledAt: at.toISOString(), schedule: true });
      if (!r.ok) {
        toast('error', `Not scheduled: ${describeError(r.error, 'update')}`);
        return;
      }
      toast('success', `Scheduled for ${formatDateTime(at.toISOString())}.`);
    },
    [update],
  );
  return { onDrop, onExternalDrop };
}

/** The hover preview, off while a post is dragged. Stable handlers, so FullCalendar sees no option change. */
export function useEventHover() {
  const dragging = useRef(false);
  const onEventEnter = useCallback((arg: EventHoveringArg) => {
    if (dragging.current) return;
    const r = arg.el.getBoundingClientRect();
    const { group, start } = arg.event.extendedProps as Pick<Preview, 'group' | 'start'>;
    setPreview({ group, start, box: { top: r.top, bottom: r.bottom, left: r.left } });
  }, []);
  const onEventLeave = useCallback(() => setPreview(null), []);
  const onDragStart = useCallback(() => {
    dragging.current = true;
    setPreview(null);
  }, []);
  const onDragStop = useCallback(() => {
    dragging.current = false;
  }, []);
  return { onEventEnter, onEventLeave, onDragStart, onDragStop };
}
