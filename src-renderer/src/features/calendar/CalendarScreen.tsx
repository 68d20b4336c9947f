import type {
  DatesSetArg,
  EventClickArg,
  EventContentArg,
  EventDropArg,
  EventHoveringArg,
  EventInput,
} from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { Draggable, type DropArg } from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Delivery } from '../../../../src-shared/api/posts';
import { accountColour } from '../../app/account-colour';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatDateTime, fromLocalInput, hour12, localZone, toLocalInput } from '../../app/format';
import { usePreferencesStore } from '../../app/preferences';
import { PLATFORM_META } from '../../app/platforms';
import { IconRefresh } from '../../components/icons';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { Segmented } from '../../components/Segmented';
import { ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useCalendarStore } from '../../stores/use-calendar-store';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { usePostsStore } from '../../stores/use-posts-store';
import { ManyActions, RunResults } from '../posts/ManyActions';
import { PostThumb, TargetChip } from '../posts/PostGroupParts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { toast } from '../../stores/use-toast-store';
import { PostDialog } from '../posts/PostDialog';
import { offersOn } from '../posts/delivery-actions';
import { ExportButton } from '../export/ExportButton';
import { prepareFullCalendarStyles } from './fullcalendar-styles';
import { namedZones } from './named-zones';
import { openingTime } from './opening-time';
import './calendar.css';
import { serviceNow } from '../../app/use-now';

prepareFullCalendarStyles();

type View = 'dayGridMonth' | 'timeGridWeek';
const VIEWS = [
  { value: 'dayGridMonth', label: 'Month' },
  { value: 'timeGridWeek', label: 'Week' },
] as const;

/**
 * Moving an event is an edit of a live schedule: a delivery the table lets edit and cancel (a schedule to
 * cancel is one to move). The service moves its whole post's scheduled deliveries together.
 */
const draggable = (d: Delivery) => offersOn(d, 'edit') && offersOn(d, 'cancel');
/** The time a draft dropped on a day (month view, no time) is scheduled at, in the shown zone. */
const DEFAULT_TIME = '09:00';

/** What the hover preview shows, and where: beside the event's box. */
interface Preview {
  readonly group: { post_id: string; deliveries: Delivery[] };
  readonly start: string;
  readonly box: { top: number; bottom: number; left: number };
}

/** The preview shown, kept apart from the screen's state: hovering re-renders only the preview, never the calendar. */
const usePreview = create<{ readonly preview: Preview | null }>()(() => ({ preview: null }));
const setPreview = (preview: Preview | null) => usePreview.setState({ preview });

/** One status for a post's event colour: failed first, then retrying, scheduled, posted. */
function statusOf(ds: readonly Delivery[]): string {
  for (const s of ['failed', 'retry_scheduled', 'scheduled', 'draft', 'posted'] as const) {
    if (ds.some((d) => d.status === s)) return s;
  }
  return 'scheduled';
}

export function CalendarScreen() {
  const { deliveries, setRange, reload, listen, reschedule } = useCalendarStore(
    useShallow((s) => ({
      deliveries: s.deliveries,
      setRange: s.setRange,
      reload: s.reload,
      listen: s.listen,
      reschedule: s.reschedule,
    })),
  );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  const calendar = useRef<FullCalendar>(null);
  const [view, setView] = useState<View>('dayGridMonth');
  const [title, setTitle] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const card = useRef<HTMLElement>(null);
  const [range, setRangeKey] = useState<{ start: Date; end: Date } | null>(null);
  const { timeZone, weekStart, clock } = usePreferencesStore(
    useShallow((s) => ({ timeZone: s.timeZone, weekStart: s.weekStart, clock: s.clock })),
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

  useEffect(() => {
    void ensureAccounts();
    return listen();
  }, [listen, ensureAccounts]);

  const names = useMemo(() => new Map((accounts.data ?? []).map((a) => [a.id, a.name])), [accounts.data]);
  const accountsById = useMemo(
    () => new Map((accounts.data ?? []).map((a) => [a.id, a] as const)),
    [accounts.data],
  );
  const { selected, toggle, drafts, loadDrafts, listenDrafts } = usePostGroupsStore(
    useShallow((s) => ({
      selected: s.selected,
      toggle: s.toggle,
      drafts: s.drafts,
      loadDrafts: s.loadDrafts,
      listenDrafts: s.listenDrafts,
    })),
  );
  const update = usePostsStore((s) => s.update);
  // One event per post and time: a post to three accounts is one event with three chips.
  const groups = useMemo(() => {
    const byKey = new Map<string, { start: string; group: { post_id: string; deliveries: Delivery[] } }>();
    for (const d of deliveries.data ?? []) {
      const start = d.status === 'posted' ? (d.published_at ?? d.scheduled_at) : d.scheduled_at;
      if (!start) continue;
      const key = `${d.post_id}@${Date.parse(start)}`;
      const g = byKey.get(key);
      if (g) g.group.deliveries.push(d);
      else byKey.set(key, { start, group: { post_id: d.post_id, deliveries: [d] } });
    }
    return [...byKey.values()];
  }, [deliveries.data]);
  const events: EventInput[] = useMemo(
    () =>
      groups.map(({ start, group }) => {
        const first = group.deliveries[0] as Delivery;
        return {
          id: first.id,
          start,
          title: first.caption ? plainName(first.caption) : '(no caption)',
          editable: group.deliveries.some(draggable),
          classNames: [
            'cal-event',
            `cal-event--${first.platform}`,
            `cal-event--account-${accountColour(first.social_account_id)}`,
            `cal-event--${statusOf(group.deliveries)}`,
            ...(selected.has(group.post_id) ? ['is-selected'] : []),
          ],
          extendedProps: { group, start },
        };
      }),
    [groups, selected],
  );
  // The week opens at its earliest post (or now), once per week shown: a reload does not move the view.
  const openedFor = useRef<Date | null>(null);
  useEffect(() => {
    if (view !== 'timeGridWeek' || !range || deliveries.loading || deliveries.data === null) return;
    if (openedFor.current === range.start) return;
    openedFor.current = range.start;
    const starts = groups
      .map((g) => g.start)
      .filter((s) => {
        const t = Date.parse(s);
        return t >= range.start.getTime() && t < range.end.getTime();
      });
    calendar.current?.getApi().scrollToTime(openingTime(starts, new Date(), range));
  }, [view, range, groups, deliveries.loading, deliveries.data]);
  const order = useMemo(() => groups.map((g) => g.group.post_id), [groups]);
  const shownGroups: PostGroup[] = useMemo(() => groups.map((g) => g.group), [groups]);

  useEffect(() => {
    void loadDrafts({ fresh: true });
    return listenDrafts();
  }, [loadDrafts, listenDrafts]);

  // Drafts in the side list drag onto a day (FullCalendar's external dragging); no event is made until the service agrees.
  const aside = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const el = aside.current;
    if (!el) return undefined;
    const d = new Draggable(el, {
      itemSelector: '.cal-draft',
      eventData: (item) => ({ create: false, title: item.dataset.title ?? '', duration: '00:30' }),
    });
    return () => d.destroy();
  }, [drafts.data]);

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
      // The calendar and the side list follow the change itself (`posts:didChange`).
      toast('success', `Scheduled for ${formatDateTime(at.toISOString())}.`);
    },
    [update],
  );

  const onDatesSet = useCallback(
    (arg: DatesSetArg) => {
      setTitle(arg.view.title);
      setPreview(null);
      setRangeKey({ start: arg.start, end: arg.end });
      void setRange(arg.start.toISOString(), arg.end.toISOString());
      // Month view: today's row in sight, whatever the window's height.
      if (arg.view.type === 'dayGridMonth')
        requestAnimationFrame(() =>
          card.current
            ?.querySelector('.fc-day-today')
            ?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
        );
    },
    [setRange],
  );

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

  const renderEvent = useCallback(
    (arg: EventContentArg) => {
      const g = arg.event.extendedProps.group as { post_id: string; deliveries: Delivery[] };
      const first = g.deliveries[0] as Delivery;
      const media = first.media?.length ?? 0;
      const who = g.deliveries
        .map(
          (d) => `${PLATFORM_META[d.platform].label} ${names.get(d.social_account_id) ?? ''} (${d.status})`,
        )
        .join(', ');
      return (
        <div
          className="cal-event__inner"
          aria-label={`${arg.timeText}: ${arg.event.title}; ${who}${selected.has(g.post_id) ? '; selected' : ''}`}
        >
          <span className="cal-event__line">
            <PostThumb postId={g.post_id} count={media} size="small" />
            <span className="cal-event__time">{arg.timeText}</span>
            {g.deliveries.map((d) => (
              <PlatformMark key={d.id} platform={d.platform} decorative />
            ))}
          </span>
          <span className="cal-event__title">{arg.event.title}</span>
        </div>
      );
    },
    [names, selected],
  );

  // The preview, off while a post is dragged. Stable handlers, so FullCalendar sees no option change.
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

  const onEventClick = useCallback(
    (arg: EventClickArg) => {
      const g = arg.event.extendedProps.group as { post_id: string };
      const e = arg.jsEvent as unknown as ReactMouseEvent;
      // Shift, Ctrl or Cmd: select for a change to many posts; a plain click opens the post.
      if (e.shiftKey || e.ctrlKey || e.metaKey) {
        arg.jsEvent.preventDefault();
        toggle(g.post_id, { range: false, order });
      } else setOpenId(arg.event.id);
    },
    [toggle, order],
  );

  const api = () => calendar.current?.getApi();
  const open = openId
    ? ((deliveries.data ?? []).find((d) => d.id === openId) ??
      (drafts.data ?? []).flatMap((g) => g.deliveries).find((d) => d.id === openId))
    : undefined;

  return (
    <div className="page page--full calendar">
      <PageHeader
        title="Calendar"
        subtitle={`Scheduled and published posts in your local time (${localZone()}). Drag a scheduled post to move it, or a draft from the list onto a day; Shift-click posts to change many at once.`}
      />
      <ExportButton kind="calendar" />
      <div className="calendar__toolbar">
        <div className="btn-row">
          <button type="button" className="btn btn--small" onClick={() => api()?.today()}>
            Today
          </button>
          <button
            type="button"
            className="btn btn--small btn--icon"
            aria-label="Previous"
            onClick={() => api()?.prev()}
          >
            ‹
          </button>
          <button
            type="button"
            className="btn btn--small btn--icon"
            aria-label="Next"
            onClick={() => api()?.next()}
          >
            ›
          </button>
          <h2 className="calendar__title" aria-live="polite">
            {title}
          </h2>
          {deliveries.loading ? (
            <span className="spinner" role="status" aria-label="Loading deliveries" />
          ) : null}
        </div>
        <div className="btn-row">
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => {
              void reload();
              void loadDrafts({ fresh: true });
            }}
          >
            <IconRefresh size={14} /> Refresh
          </button>
          <Segmented
            label="Calendar view"
            value={view}
            options={VIEWS}
            onChange={(v) => {
              setView(v);
              api()?.changeView(v);
            }}
          />
        </div>
      </div>
      {deliveries.error && deliveries.data === null ? (
        <ErrorAlert error={deliveries.error} title="Could not load the calendar" />
      ) : (
        <Freshness state={deliveries} what="the calendar" onRetry={() => void reload()} />
      )}
      <ManyActions accounts={accounts.data ?? []} />
      <RunResults groups={shownGroups} />
      <div className="calendar__body">
        <section ref={card} className="card calendar__card" aria-label="Calendar">
          <FullCalendar
            ref={calendar}
            plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin, namedZones]}
            timeZone={timeZone ?? 'local'}
            initialView={view}
            headerToolbar={false}
            height="100%"
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
        </section>
        <aside className="card calendar__drafts" aria-label="Unscheduled drafts">
          <h2 className="calendar__drafts-title">Unscheduled drafts</h2>
          {drafts.data && drafts.data.length === 0 ? (
            <p className="muted">No drafts without a time. Save a post as a draft to plan it here.</p>
          ) : (
            <p className="muted">Drag one onto a day to schedule it (09:00 in month view).</p>
          )}
          <ul ref={aside} className="calendar__draft-list">
            {(drafts.data ?? []).map((g) => {
              const first = g.deliveries[0];
              if (!first) return null;
              const title = first.caption ? plainName(first.caption) : '(no caption)';
              return (
                <li key={g.post_id} className="cal-draft" data-delivery-id={first.id} data-title={title}>
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
                    onClick={() => setOpenId(first.id)}
                  >
                    Edit
                  </button>
                </li>
              );
            })}
          </ul>
        </aside>
      </div>
      {!deliveries.loading && deliveries.data && deliveries.data.length === 0 ? (
        <p className="calendar__empty muted" role="status">
          Nothing scheduled in this range. Compose a post and pick “Schedule” to see it here.
        </p>
      ) : null}
      <EventPreview names={names} />
      {open ? (
        <PostDialog delivery={open} accounts={accounts.data ?? []} onClose={() => setOpenId(null)} />
      ) : null}
    </div>
  );
}

const PREVIEW_WIDTH = 320;
const PREVIEW_ROOM = 220;

/** The hover preview: the whole caption, each account with its colour, and the time in the shown zone. */
function EventPreview({ names }: { readonly names: ReadonlyMap<string, string> }) {
  const preview = usePreview((s) => s.preview);
  useEffect(() => () => setPreview(null), []);
  if (!preview) return null;
  const { group, start, box } = preview;
  const first = group.deliveries[0] as Delivery;
  // Below the event, or above it near the window's bottom; never past the right edge.
  const below = box.bottom + PREVIEW_ROOM < window.innerHeight;
  const left = Math.max(8, Math.min(box.left, window.innerWidth - PREVIEW_WIDTH - 8));
  const place = below ? { top: box.bottom + 6, left } : { bottom: window.innerHeight - box.top + 6, left };
  return (
    <div className="cal-preview" role="tooltip" style={place}>
      <span className="cal-preview__time">{formatDateTime(start)}</span>
      <p className="cal-preview__caption" dir="auto">
        {first.caption ? plainName(first.caption) : '(no caption)'}
      </p>
      <ul className="cal-preview__accounts">
        {group.deliveries.map((d) => (
          <li key={d.id}>
            <span
              className={`cal-preview__swatch cal-preview__swatch--${accountColour(d.social_account_id)}`}
              aria-hidden="true"
            />
            <PlatformMark platform={d.platform} decorative />
            {names.get(d.social_account_id) ?? PLATFORM_META[d.platform].label}
          </li>
        ))}
      </ul>
    </div>
  );
}
