import { Draggable } from '@fullcalendar/interaction';
import { useEffect, useRef } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { TargetChip } from '../posts/PostGroupParts';
import { captionTitle } from './calendar-events';

interface DraftListProps {
  readonly drafts: readonly PostGroup[] | null;
  readonly accountsById: ReadonlyMap<string, Account>;
  onEdit(deliveryId: string): void;
}

/** The unscheduled drafts beside the calendar; each drags onto a day (FullCalendar's external dragging). */
export function DraftList({ drafts, accountsById, onEdit }: DraftListProps) {
  // No event is made on a drop until the service agrees (the screen's `drop` handler).
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (!el) return undefined;
    const d = new Draggable(el, {
      itemSelector: '.cal-draft',
      eventData: (item) => ({ create: false, title: item.dataset.title ?? '', duration: '00:30' }),
    });
    return () => d.destroy();
  }, [drafts]);
  return (
    <aside className="card calendar__drafts" aria-label="Unscheduled drafts">
      <h2 className="calendar__drafts-title">Unscheduled drafts</h2>
      {drafts && drafts.length === 0 ? (
        <p className="muted">No drafts without a time. Save a post as a draft to plan it here.</p>
      ) : (
        <p className="muted">Drag one onto a day to schedule it (09:00 in month view).</p>
      )}
      <ul ref={list} className="list-stack calendar__draft-list">
        {(drafts ?? []).map((g) => {
          const first = g.deliveries[0];
          if (!first) return null;
          const title = captionTitle(first);
          return (
            <li key={g.post_id} className="stack cal-draft" data-delivery-id={first.id} data-title={title}>
              <span className="cal-draft__title">{title}</span>
              <span className="cal-draft__chips">
                {g.deliveries.map((d) => (
                  <TargetChip key={d.id} delivery={d} account={accountsById.get(d.social_account_id)} />
                ))}
              </span>
              <button
                type="button"
                className="btn btn--small btn--ghost"
                aria-label={`Edit draft: ${title.slice(0, 40)}`}
                onClick={() => onEdit(first.id)}
              >
                Edit
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
