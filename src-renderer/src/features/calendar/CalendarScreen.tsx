import type { DatesSetArg } from '@fullcalendar/core';
import type FullCalendar from '@fullcalendar/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import { localZone } from '../../app/format';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useCalendarStore } from '../../stores/use-calendar-store';
import { usePostGroupsStore } from '../../stores/use-post-groups-store';
import { ExportButton } from '../export/ExportButton';
import { ManyActions, RunResults } from '../posts/ManyActions';
import { PostDialog } from '../posts/PostDialog';
import { CalendarGrid } from './CalendarGrid';
import { CalendarToolbar, type View } from './CalendarToolbar';
import { DraftList } from './DraftList';
import { EventPreview, setPreview } from './EventPreview';
import { groupByPostAndTime, toEvents } from './calendar-events';
import { prepareFullCalendarStyles } from './fullcalendar-styles';
import { useWeekOpening } from './use-week-opening';
import './calendar.css';

prepareFullCalendarStyles();

const SUBTITLE = `Drag a scheduled post to move it, or a draft from the list onto a day; Shift-click posts to change many at once.`;

export function CalendarScreen() {
  const { deliveries, setRange, reload, listen } = useCalendarStore(
    useShallow((s) => pick(s, 'deliveries', 'setRange', 'reload', 'listen')),
  );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  const { selected, drafts, loadDrafts, listenDrafts } = usePostGroupsStore(
    useShallow((s) => pick(s, 'selected', 'drafts', 'loadDrafts', 'listenDrafts')),
  );
  const calendar = useRef<FullCalendar>(null);
  const card = useRef<HTMLElement>(null);
  const [view, setView] = useState<View>('dayGridMonth');
  const [title, setTitle] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [range, setRangeKey] = useState<{ start: Date; end: Date } | null>(null);

  useEffect(() => {
    void ensureAccounts();
    return listen();
  }, [listen, ensureAccounts]);
  useEffect(() => {
    void loadDrafts({ fresh: true });
    return listenDrafts();
  }, [loadDrafts, listenDrafts]);

  const names = useMemo(() => new Map((accounts.data ?? []).map((a) => [a.id, a.name])), [accounts.data]);
  const accountsById = useMemo(
    () => new Map((accounts.data ?? []).map((a) => [a.id, a] as const)),
    [accounts.data],
  );
  const groups = useMemo(() => groupByPostAndTime(deliveries.data ?? []), [deliveries.data]);
  const events = useMemo(() => toEvents(groups, selected), [groups, selected]);
  useWeekOpening(view, range, groups, !deliveries.loading && deliveries.data !== null);
  const order = useMemo(() => groups.map((g) => g.group.post_id), [groups]);
  const shownGroups: PostGroup[] = useMemo(() => groups.map((g) => g.group), [groups]);

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
  const api = () => calendar.current?.getApi();
  const open = openId
    ? ((deliveries.data ?? []).find((d) => d.id === openId) ??
      (drafts.data ?? []).flatMap((g) => g.deliveries).find((d) => d.id === openId))
    : undefined;
  return (
    <div className="page page--full calendar">
      <PageHeader
        title="Calendar"
        subtitle={`Scheduled and published posts in your local time (${localZone()}). ${SUBTITLE}`}
      />
      <ExportButton kind="calendar" />
      <CalendarToolbar
        title={title}
        loading={deliveries.loading}
        view={view}
        onToday={() => api()?.today()}
        onPrev={() => api()?.prev()}
        onNext={() => api()?.next()}
        onRefresh={() => {
          void reload();
          void loadDrafts({ fresh: true });
        }}
        onView={(v) => {
          setView(v);
          api()?.changeView(v);
        }}
      />
      {deliveries.error && deliveries.data === null ? (
        <ErrorAlert error={deliveries.error} title="Could not load the calendar" />
      ) : (
        <Freshness state={deliveries} what="the calendar" onRetry={reload} />
      )}
      <ManyActions accounts={accounts.data ?? []} />
      <RunResults groups={shownGroups} />
      <div className="calendar__body">
        <section ref={card} className="card calendar__card" aria-label="Calendar">
          <CalendarGrid
            calendar={calendar}
            view={view}
            events={events}
            names={names}
            order={order}
            onDatesSet={onDatesSet}
            onOpen={setOpenId}
          />
        </section>
        <DraftList drafts={drafts.data} accountsById={accountsById} onEdit={setOpenId} />
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
