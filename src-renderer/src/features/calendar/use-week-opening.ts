import { useEffect, useRef } from 'react';
import type { View } from './CalendarToolbar';
import type { PlacedGroup } from './calendar-events';
import { openingTime } from './opening-time';

/** The week opens at its earliest post (or now), once per week shown: a reload does not move the view. */
export function useWeekOpening(
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
    // The week grid has no scroller of its own (height auto): the page scrolls to the opening hour's row.
    const time = openingTime(starts, new Date(), range);
    document
      .querySelector<HTMLElement>(`.calendar .fc-timegrid-slot-label[data-time="${time}"]`)
      ?.scrollIntoView({ block: 'start' });
  }, [view, range, groups, settled]);
}
