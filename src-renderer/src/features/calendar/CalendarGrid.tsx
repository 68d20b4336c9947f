import type { DatesSetArg, EventClickArg, EventContentArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useCallback, useMemo, type MouseEvent as ReactMouseEvent, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { hour12 } from '../../app/format';
import { usePreferencesStore } from '../../app/preferences';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import type { EventGroup } from './calendar-events';
import { EventCard } from './EventCard';
import type { View } from './CalendarToolbar';
import { namedZones } from './named-zones';
import { useEventDrops, useEventHover } from './use-event-drops';

interface CalendarGridProps {
  readonly calendar: RefObject<FullCalendar | null>;
  readonly view: View;
  readonly events: EventInput[];
  readonly names: ReadonlyMap<string, string>;
  /** The posts in the order shown, for selecting many. */
  readonly order: readonly string[];
  onDatesSet(arg: DatesSetArg): void;
  /** A plain click on an event: open its post. */
  onOpen(deliveryId: string): void;
}

/** The month or week grid (FullCalendar) in the chosen zone, week start and clock, with dragging and the hover preview. */
export function CalendarGrid({
  calendar,
  view,
  events,
  names,
  order,
  onDatesSet,
  onOpen,
}: CalendarGridProps) {
  const { selected, toggle } = usePostGroupsStore(useShallow((s) => pick(s, 'selected', 'toggle')));
  const { timeZone, weekStart, clock } = usePreferencesStore(
    useShallow((s) => pick(s, 'timeZone', 'weekStart', 'clock')),
  );
  // One object per clock: FullCalendar re-renders on a new option object.
  const timeFormat = useMemo(
    () =>
      ({
        hour: 'numeric',
        minute: '2-digit',
        hour12: clock === 'auto' ? undefined : hour12(),
        meridiem: 'short',
      }) as const,
    [clock],
  );
  const renderEvent = useCallback(
    (arg: EventContentArg) => {
      const group = arg.event.extendedProps.group as EventGroup;
      const isSelected = selected.has(group.post_id);
      return (
        <EventCard
          group={group}
          timeText={arg.timeText}
          title={arg.event.title}
          names={names}
          selected={isSelected}
        />
      );
    },
    [names, selected],
  );
  const onEventClick = useCallback(
    (arg: EventClickArg) => {
      const g = arg.event.extendedProps.group as { post_id: string };
      const e = arg.jsEvent as unknown as ReactMouseEvent;
      // Shift, Ctrl or Cmd: select for a change to many posts; a plain click opens the post.
      if (e.shiftKey || e.ctrlKey || e.metaKey) {
        arg.jsEvent.preventDefault();
        toggle(g.post_id, { range: false, order });
      } else onOpen(arg.event.id);
    },
    [toggle, order, onOpen],
  );
  const { onDrop, onExternalDrop } = useEventDrops();
  const { onEventEnter, onEventLeave, onDragStart, onDragStop } = useEventHover();
  return (
    <FullCalendar
      ref={calendar}
      plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin, namedZones]}
      timeZone={timeZone ?? 'local'}
      initialView={view}
      headerToolbar={false}
      // Laid out whole, with no scroller of its own: the page scrolls (design.md: no scroll box inside the page).
      // The week opens by scrolling the page to its first post's hour; the month keeps today's row in sight.
      height="auto"
      firstDay={weekStart === 'sunday' ? 0 : 1}
      nowIndicator
      allDaySlot={false}
      dayMaxEvents={4}
      eventInteractive
      editable
      eventDurationEditable={false}
      snapDuration="00:15:00"
      slotDuration="00:30:00"
      defaultTimedEventDuration="00:30:00"
      // Tall enough in the week view for the time, the accounts and two lines of caption.
      eventMinHeight={52}
      eventTimeFormat={timeFormat}
      slotLabelFormat={timeFormat}
      events={events}
      datesSet={onDatesSet}
      eventDrop={(arg) => void onDrop(arg)}
      eventClick={onEventClick}
      droppable
      drop={(arg) => void onExternalDrop(arg)}
      eventContent={renderEvent}
      eventMouseEnter={onEventEnter}
      eventMouseLeave={onEventLeave}
      eventDragStart={onDragStart}
      eventDragStop={onDragStop}
      // FullCalendar names each day cell by its date alone, hiding the posts inside it from the
      // cell's name; the date stays a link of its own, and the cell is named by what it holds.
      dayCellDidMount={(arg) => arg.el.removeAttribute('aria-labelledby')}
    />
  );
}
