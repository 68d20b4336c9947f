import type {
  DatesSetArg,
  EventClickArg,
  EventContentArg,
  EventDropArg,
  EventInput,
} from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Delivery } from '../../../../src-shared/api/posts';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { formatDateTime, localZone } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { IconRefresh } from '../../components/icons';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { Segmented } from '../../components/Segmented';
import { ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useCalendarStore } from '../../stores/use-calendar-store';
import { toast } from '../../stores/use-toast-store';
import { PostDialog } from '../posts/PostDialog';
import { ExportButton } from '../export/ExportButton';
import { prepareFullCalendarStyles } from './fullcalendar-styles';
import './calendar.css';

prepareFullCalendarStyles();

type View = 'dayGridMonth' | 'timeGridWeek';
const VIEWS = [
  { value: 'dayGridMonth', label: 'Month' },
  { value: 'timeGridWeek', label: 'Week' },
] as const;

/** Only a still-scheduled delivery can move; the service moves its whole post's scheduled deliveries. */
const draggable = (d: Delivery) => d.status === 'scheduled';

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

  useEffect(() => {
    void ensureAccounts();
    return listen();
  }, [listen, ensureAccounts]);

  const names = useMemo(() => new Map((accounts.data ?? []).map((a) => [a.id, a.name])), [accounts.data]);
  const events: EventInput[] = useMemo(
    () =>
      (deliveries.data ?? []).flatMap((d) => {
        const start = d.status === 'posted' ? (d.published_at ?? d.scheduled_at) : d.scheduled_at;
        if (!start) return [];
        return [
          {
            id: d.id,
            start,
            title: d.caption ? plainName(d.caption) : '(no caption)',
            editable: draggable(d),
            classNames: ['cal-event', `cal-event--${d.platform}`, `cal-event--${d.status}`],
            extendedProps: { delivery: d },
          },
        ];
      }),
    [deliveries.data],
  );

  const onDatesSet = useCallback(
    (arg: DatesSetArg) => {
      setTitle(arg.view.title);
      void setRange(arg.start.toISOString(), arg.end.toISOString());
    },
    [setRange],
  );

  const onDrop = useCallback(
    async (arg: EventDropArg) => {
      const start = arg.event.start;
      if (!start || start.getTime() <= Date.now()) {
        arg.revert();
        toast('warning', 'Posts can only move to a time in the future.');
        return;
      }
      const r = await reschedule(arg.event.id, start.toISOString());
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
      const d = arg.event.extendedProps.delivery as Delivery;
      return (
        <div
          className="cal-event__inner"
          aria-label={`${PLATFORM_META[d.platform].label}, ${names.get(d.social_account_id) ?? ''}, ${arg.timeText}: ${arg.event.title} (${d.status})`}
        >
          <PlatformMark platform={d.platform} decorative />
          <span className="cal-event__time">{arg.timeText}</span>
          <span className="cal-event__title">{arg.event.title}</span>
        </div>
      );
    },
    [names],
  );

  const api = () => calendar.current?.getApi();
  const open = openId ? (deliveries.data ?? []).find((d) => d.id === openId) : undefined;

  return (
    <div className="page page--full calendar">
      <PageHeader
        title="Calendar"
        subtitle={`Scheduled and published deliveries in your local time (${localZone()}). Drag a scheduled post to move it.`}
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
          <button type="button" className="btn btn--small btn--ghost" onClick={() => void reload()}>
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
      <section className="card calendar__card" aria-label="Calendar">
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          initialView={view}
          headerToolbar={false}
          height="100%"
          firstDay={1}
          nowIndicator
          allDaySlot={false}
          dayMaxEvents={4}
          eventInteractive
          editable
          eventDurationEditable={false}
          snapDuration="00:15:00"
          slotDuration="00:30:00"
          scrollTime="08:00:00"
          defaultTimedEventDuration="00:30:00"
          eventTimeFormat={{ hour: 'numeric', minute: '2-digit', meridiem: 'short' }}
          events={events}
          datesSet={onDatesSet}
          eventDrop={(arg) => void onDrop(arg)}
          eventClick={(arg: EventClickArg) => setOpenId(arg.event.id)}
          eventContent={renderEvent}
          // FullCalendar names each day cell by its date alone, hiding the posts inside it from the
          // cell's name; the date stays a link of its own, and the cell is named by what it holds.
          dayCellDidMount={(arg) => arg.el.removeAttribute('aria-labelledby')}
        />
      </section>
      {!deliveries.loading && deliveries.data && deliveries.data.length === 0 ? (
        <p className="calendar__empty muted" role="status">
          Nothing scheduled in this range. Compose a post and pick “Schedule” to see it here.
        </p>
      ) : null}
      {open ? (
        <PostDialog delivery={open} accounts={accounts.data ?? []} onClose={() => setOpenId(null)} />
      ) : null}
    </div>
  );
}
