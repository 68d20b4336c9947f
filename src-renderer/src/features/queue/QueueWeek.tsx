import { useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { AccountUpcoming } from '../../../../src-shared/ipc/queue';
import type { AccountQueue } from '../../../../src-shared/queue';
import { formatDay, localZone } from '../../app/format';
import { usePreferencesStore } from '../../app/preferences';
import { useServiceNow } from '../../app/use-now';
import { EmptyState } from '../../components/states';
import { UPCOMING_COUNT } from '../../stores/use-queue-store';
import { AccountLegend } from './AccountLegend';
import { QueueGrid } from './QueueGrid';
import { TopDropZone } from './TopDropZone';
import { QueueContext, type QueueContextValue } from './queue-context';
import { buildWeekGrid, horizonOf, wallOf, weekDays, type CellPost } from './week-grid';

/** At most this many weeks ahead, whatever the upcoming lists reach. */
const MAX_WEEKS = 52;

/** One week of the grid, with the week's navigation and the "top of the queue" drop zone. */
export function QueueWeek({
  accounts,
  queues,
  upcoming,
}: {
  readonly accounts: readonly Account[];
  readonly queues: readonly AccountQueue[];
  readonly upcoming: readonly AccountUpcoming[];
}) {
  const weekStart = usePreferencesStore((s) => s.weekStart);
  const now = useServiceNow(60_000);
  const zone = localZone();
  const [offset, setOffset] = useState(0);
  const [dragged, setDragged] = useState<CellPost | null>(null);
  const days = weekDays(new Date(now), zone, weekStart, offset);
  // A few hundred slots at most: laid out again on each render rather than memoised.
  const grid = buildWeekGrid(upcoming, days, zone);
  const horizon = horizonOf(upcoming, UPCOMING_COUNT);
  const nextDays = weekDays(new Date(now), zone, weekStart, offset + 1);
  const canNext =
    offset + 1 < MAX_WEEKS &&
    (horizon === Infinity || wallOf(new Date(horizon), zone).day >= (nextDays[6] ?? ''));
  const ctx: QueueContextValue = {
    accounts,
    queues,
    upcoming,
    dragged,
    setDragged,
    today: wallOf(new Date(now), zone).day,
  };

  if (queues.every((q) => q.slots.length === 0))
    return (
      <EmptyState title="No posting times yet">
        Add a posting time: a day and time when some of your accounts post. Add to queue then fills them in
        order.
      </EmptyState>
    );
  return (
    <QueueContext.Provider value={ctx}>
      <nav className="queue-week__nav" aria-label="Weeks">
        <button
          type="button"
          className="btn btn--small"
          disabled={offset === 0}
          onClick={() => setOffset(offset - 1)}
        >
          Previous week
        </button>
        <button type="button" className="btn btn--small" disabled={offset === 0} onClick={() => setOffset(0)}>
          This week
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={!canNext}
          onClick={() => setOffset(offset + 1)}
        >
          Next week
        </button>
        <span className="queue-week__range" aria-live="polite">
          {formatDay(days[0] ?? '')} – {formatDay(days[6] ?? '')}
        </span>
      </nav>
      <AccountLegend />
      <TopDropZone />
      {grid.rows.length === 0 ? (
        <p className="muted">No posting times fall in this week.</p>
      ) : (
        <QueueGrid grid={grid} />
      )}
    </QueueContext.Provider>
  );
}
