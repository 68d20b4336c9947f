import { weekdayName } from '../../components/DayPicker';
import { formatWallTime } from '../../app/wall-time';
import { useQueueContext } from './queue-context';
import { SlotCell } from './SlotCell';
import type { WeekGrid } from './week-grid';

const dayLabel = (day: string): { name: string; date: string } => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  return {
    name: weekdayName(at.getUTCDay() === 0 ? 7 : at.getUTCDay(), 'short'),
    date: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(at),
  };
};

/** The week's posting times as a table: a row per time, a column per day, a cell per slot. */
export function QueueGrid({ grid }: { readonly grid: WeekGrid }) {
  const { today } = useQueueContext();
  return (
    <table className="queue-grid" aria-label="Posting times this week">
      <thead>
        <tr>
          <th scope="col" className="queue-grid__corner">
            <span className="visually-hidden">Time</span>
          </th>
          {grid.days.map((day) => {
            const l = dayLabel(day);
            return (
              <th key={day} scope="col" className={day === today ? 'queue-grid__today' : undefined}>
                <span className="queue-grid__dayname">{l.name}</span>{' '}
                <span className="queue-grid__date">{l.date}</span>
                {day === today ? <span className="badge badge--plain queue-grid__now">Today</span> : null}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {grid.rows.map((row) => (
          <tr key={row.time}>
            <th scope="row" className="queue-grid__time tabular">
              {formatWallTime(row.time)}
            </th>
            {row.cells.map((cell, i) => (
              <SlotCell key={grid.days[i]} cell={cell} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
