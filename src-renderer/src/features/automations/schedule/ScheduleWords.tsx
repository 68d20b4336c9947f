import { usePreferencesStore } from '../../../app/preferences';
import { clockIs12h, formatWallTime } from '../../../app/wall-time';
import { scheduleInWords } from './cron-pick';

/** An automation's schedule in words, in its zone; the cron itself only inside the details. */
export function ScheduleWords({ cron, timezone }: { readonly cron: string; readonly timezone: string }) {
  // Re-rendered when the clock preference changes.
  usePreferencesStore((s) => s.clock);
  const words = scheduleInWords(cron, { use24: !clockIs12h(), time: formatWallTime });
  return (
    <span className="automation__schedule">
      <span className="automation__words">
        {words}, {timezone} time
      </span>
      <details className="automation__cron">
        <summary>Cron</summary>
        <code>{cron}</code>
      </details>
    </span>
  );
}
