import { WEEKDAYS } from '../../../src-shared/queue';
import { usePreferencesStore } from '../app/preferences';

/** ISO weekdays (1 Monday … 7 Sunday), in the order of the person's week. */
const weekOrder = (start: 'monday' | 'sunday'): readonly number[] =>
  start === 'sunday' ? [7, ...WEEKDAYS.slice(0, 6)] : WEEKDAYS;

/** The name of an ISO weekday in the person's language (`long`: Monday, `short`: Mon). */
export const weekdayName = (iso: number, width: 'long' | 'short' = 'long'): string =>
  new Intl.DateTimeFormat(undefined, { weekday: width, timeZone: 'UTC' }).format(
    // 2024-01-01 was a Monday.
    new Date(Date.UTC(2024, 0, iso)),
  );

/** Days of the week as checkboxes, in the person's week order; values are ISO weekdays. */
export function DayPicker({
  label,
  value,
  onChange,
  error,
}: {
  readonly label: string;
  readonly value: ReadonlySet<number>;
  readonly onChange: (days: ReadonlySet<number>) => void;
  readonly error?: string | null;
}) {
  const start = usePreferencesStore((s) => s.weekStart);
  return (
    <fieldset className="day-picker">
      <legend className="field__label">{label}</legend>
      <span className="day-picker__days">
        {weekOrder(start).map((d) => (
          <label key={d} className="checkbox">
            <input
              type="checkbox"
              checked={value.has(d)}
              aria-label={weekdayName(d)}
              onChange={(e) => {
                const next = new Set(value);
                if (e.target.checked) next.add(d);
                else next.delete(d);
                onChange(next);
              }}
            />
            <span aria-hidden="true">{weekdayName(d, 'short')}</span>
          </label>
        ))}
      </span>
      {error ? <span className="field__error">{error}</span> : null}
    </fieldset>
  );
}
