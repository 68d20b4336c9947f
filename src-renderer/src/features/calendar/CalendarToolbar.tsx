import { IconRefresh } from '../../components/icons';
import { Segmented } from '../../components/Segmented';

export type View = 'dayGridMonth' | 'timeGridWeek';
const VIEWS = [
  { value: 'dayGridMonth', label: 'Month' },
  { value: 'timeGridWeek', label: 'Week' },
] as const;

interface CalendarToolbarProps {
  readonly title: string;
  readonly loading: boolean;
  readonly view: View;
  onToday(): void;
  onPrev(): void;
  onNext(): void;
  onRefresh(): void;
  onView(view: View): void;
}

/** Today, back and forward, the range shown, Refresh, and Month or Week. */
export function CalendarToolbar(p: CalendarToolbarProps) {
  return (
    <div className="row row--wrap row--ends calendar__toolbar">
      <div className="btn-row">
        <button type="button" className="btn btn--small" onClick={p.onToday}>
          Today
        </button>
        <button type="button" className="btn btn--small btn--icon" aria-label="Previous" onClick={p.onPrev}>
          ‹
        </button>
        <button type="button" className="btn btn--small btn--icon" aria-label="Next" onClick={p.onNext}>
          ›
        </button>
        <h2 className="calendar__title" aria-live="polite">
          {p.title}
        </h2>
        {p.loading ? <span className="spinner" role="status" aria-label="Loading deliveries" /> : null}
      </div>
      <div className="btn-row">
        <button type="button" className="btn btn--small btn--ghost" onClick={p.onRefresh}>
          <IconRefresh size={14} /> Refresh
        </button>
        <Segmented label="Calendar view" value={p.view} options={VIEWS} onChange={p.onView} />
      </div>
    </div>
  );
}
