import type FullCalendar from '@fullcalendar/react';
import { useEffect, useRef, type RefObject } from 'react';
import type { View } from './CalendarToolbar';
import type { PlacedGroup } from './calendar-events';
import { openingTime } from './opening-time';

/** The week opens at its earliest post (or now), once per week shown: a reload does not move the view. */
export function useWeekOpening(
  calendar: RefObject<FullCalendar | null>,
  view: View,
  range: { start: Date; end: Date } | null,
  groups: readonly PlacedGroup[],
  settled: boolean,
) {
  const openedFor = useRef<Date | null>(null);
  useEffect(() => {
    if (view !== 'timeGridWeek' || !range || !settled) return;
    if (openedFor.current === range.start) return;
    openedFor.current = range.start;
    const starts = groups
      .map((g) => g.start)
      .filter((s) => {
        const t = Date.parse(s);
        return t >= range.start.getTime() && t < range.end.getTime();
      });
    calendar.current?.getApi().scrollToTime(openingTime(starts, new Date(), range));
  }, [calendar, view, range, groups, settled]);
}
