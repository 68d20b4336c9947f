import type { EventInput } from '@fullcalendar/core';
import type { Delivery } from '../../../../src-shared/api/posts';
import { accountColour } from '../../app/account-colour';
import { plainName } from '../../app/bidi';
import { offersOn } from '../posts/delivery-actions';

/** One post at one time: a post to three accounts is one event with three chips. */
export interface EventGroup {
  readonly post_id: string;
  readonly deliveries: Delivery[];
}

/** A group and the time it stands at (its publish time once posted). */
export interface PlacedGroup {
  readonly start: string;
  readonly group: EventGroup;
}

/**
 * Moving an event is an edit of a live schedule: a delivery the table lets edit and cancel (a schedule to
 * cancel is one to move). The service moves its whole post's scheduled deliveries together.
 */
export const draggable = (d: Delivery) => offersOn(d, 'edit') && offersOn(d, 'cancel');

/** A caption as a title: plain text, or a stand-in when there is none. */
export const captionTitle = (d: Delivery) => (d.caption ? plainName(d.caption) : '(no caption)');

/** One status for a post's event colour: failed first, then retrying, scheduled, posted. */
function statusOf(ds: readonly Delivery[]): string {
  for (const s of ['failed', 'retry_scheduled', 'scheduled', 'draft', 'posted'] as const) {
    if (ds.some((d) => d.status === s)) return s;
  }
  return 'scheduled';
}

/** The deliveries grouped by post and time, in the order they came. */
export function groupByPostAndTime(deliveries: readonly Delivery[]): PlacedGroup[] {
  const byKey = new Map<string, { start: string; group: { post_id: string; deliveries: Delivery[] } }>();
  for (const d of deliveries) {
    const start = d.status === 'posted' ? (d.published_at ?? d.scheduled_at) : d.scheduled_at;
    if (!start) continue;
    const key = `${d.post_id}@${Date.parse(start)}`;
    const g = byKey.get(key);
    if (g) g.group.deliveries.push(d);
    else byKey.set(key, { start, group: { post_id: d.post_id, deliveries: [d] } });
  }
  return [...byKey.values()];
}

/** FullCalendar's events: coloured by platform, account and status; marked when selected. */
export function toEvents(groups: readonly PlacedGroup[], selected: ReadonlySet<string>): EventInput[] {
  return groups.map(({ start, group }) => {
    const first = group.deliveries[0] as Delivery;
    return {
      id: first.id,
      start,
      title: captionTitle(first),
      editable: group.deliveries.some(draggable),
      classNames: [
        'cal-event',
        `cal-event--${first.platform}`,
        `account-colour-${accountColour(first.social_account_id)}`,
        `cal-event--${statusOf(group.deliveries)}`,
        ...(selected.has(group.post_id) ? ['is-selected'] : []),
      ],
      extendedProps: { group, start },
    };
  });
}
