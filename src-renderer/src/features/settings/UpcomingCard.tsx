import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { plainName } from '../../app/bidi';
import { formatDate, formatDateTime } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';
import { useScheduleStore } from '../../stores/use-schedule-store';
import { SettingsCard } from './SettingsCard';
import { LoadGate } from '../../components/LoadGate';

/**
 * The next occurrences across this computer's automations. One that falls at a time of the week when Postdesk
 * was not running last week is marked: unless it runs then this time, that run will be missed.
 */
export function UpcomingCard() {
  const { upcoming, load } = useScheduleStore(useShallow((s) => pick(s, 'upcoming', 'load')));
  useEffect(() => void load(), [load]);
  const data = upcoming.data;
  const atRisk = data?.occurrences.filter((o) => o.last_week === 'not_running').length ?? 0;
  return (
    <SettingsCard
      id="upcoming"
      title="Next runs on this computer"
      body="form-stack"
      badge={atRisk > 0 ? <StatusBadge status="missed" label={`${atRisk} at risk`} /> : null}
    >
      <LoadGate state={upcoming} what="the next runs" onRetry={load} freshness>
        {data && data.occurrences.length > 0 ? (
          <>
            <ol className="list-stack upcoming" aria-label="Next runs">
              {data.occurrences.map((o) => (
                <li key={`${o.automation_id}-${o.at}`} className="row row--wrap upcoming__item">
                  <span className="upcoming__when">{formatDateTime(o.at)}</span>
                  <span className="upcoming__name">{plainName(o.automation_name)}</span>
                  {o.last_week === 'not_running' ? (
                    <StatusBadge status="missed" label="Postdesk was not running at this time last week" />
                  ) : null}
                </li>
              ))}
            </ol>
            <p className="muted">
              {data.history_since
                ? `Marked by when Postdesk ran in the past week (recorded since ${formatDate(data.history_since)}). Automations run only while Postdesk is running and the computer is awake.`
                : 'Postdesk has not recorded when it runs yet; marks appear after a week.'}
            </p>
          </>
        ) : (
          <p className="muted">No automation is set to run on this computer.</p>
        )}
      </LoadGate>
    </SettingsCard>
  );
}
