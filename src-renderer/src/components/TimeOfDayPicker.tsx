import { clockIs12h } from '../app/wall-time';
import { usePreferencesStore } from '../app/preferences';

const pad = (n: number) => String(n).padStart(2, '0');
const MINUTES = Array.from({ length: 12 }, (_, i) => i * 5);

/**
 * A wall-clock time (`HH:mm`) picked as the person reads times: hour, minute and, on the 12-hour clock, AM or PM.
 * No typed text, so no clock is forced on anyone. Minutes go by five; a time saved elsewhere keeps its minute.
 */
export function TimeOfDayPicker({
  label,
  value,
  onChange,
  error,
}: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (hhmm: string) => void;
  readonly error?: string | null;
}) {
  // Re-rendered when the clock preference changes.
  usePreferencesStore((s) => s.clock);
  const twelve = clockIs12h();
  const [h = 9, m = 0] = /^\d\d:\d\d$/.test(value) ? value.split(':').map(Number) : [];
  const pm = h >= 12;
  const set = (hour: number, minute: number) => onChange(`${pad(hour)}:${pad(minute)}`);
  const minutes = MINUTES.includes(m) ? MINUTES : [...MINUTES, m].sort((a, b) => a - b);
  return (
    <fieldset className="time-picker" aria-invalid={error ? true : undefined}>
      <legend className="field__label">{label}</legend>
      <span className="time-picker__row">
        <select
          className="input time-picker__select"
          aria-label="Hour"
          value={twelve ? String(h % 12 === 0 ? 12 : h % 12) : String(h)}
          onChange={(e) => {
            const n = Number(e.target.value);
            set(twelve ? (n % 12) + (pm ? 12 : 0) : n, m);
          }}
        >
          {(twelve ? [12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] : Array.from({ length: 24 }, (_, i) => i)).map(
            (n) => (
              <option key={n} value={String(n)}>
                {twelve ? n : pad(n)}
              </option>
            ),
          )}
        </select>
        <span aria-hidden="true">:</span>
        <select
          className="input time-picker__select"
          aria-label="Minute"
          value={String(m)}
          onChange={(e) => set(h, Number(e.target.value))}
        >
          {minutes.map((n) => (
            <option key={n} value={String(n)}>
              {pad(n)}
            </option>
          ))}
        </select>
        {twelve ? (
          <select
            className="input time-picker__select"
            aria-label="AM or PM"
            value={pm ? 'PM' : 'AM'}
            onChange={(e) => set((h % 12) + (e.target.value === 'PM' ? 12 : 0), m)}
          >
            <option value="AM">AM</option>
            <option value="PM">PM</option>
          </select>
        ) : null}
      </span>
      {error ? <span className="field__error">{error}</span> : null}
    </fieldset>
  );
}
