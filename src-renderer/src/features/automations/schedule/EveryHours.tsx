import { useId } from 'react';
import { EVERY_HOURS, type SchedulePick } from './cron-pick';
import { LabeledField } from '../../../components/Field';

/** "Every few hours": how many, and the minute past the hour. */
export function EveryHours({
  value,
  onChange,
  error,
}: {
  readonly value: Extract<SchedulePick, { kind: 'hours' }>;
  readonly onChange: (p: SchedulePick) => void;
  readonly error: string | null;
}) {
  const id = useId();
  return (
    <div className="schedule-picker__hours">
      <LabeledField id={`${id}-every`} label="Every">
        <select
          id={`${id}-every`}
          className="input"
          value={String(value.every)}
          onChange={(e) => onChange({ ...value, every: Number(e.target.value) })}
        >
          {EVERY_HOURS.map((n) => (
            <option key={n} value={String(n)}>
              {n === 1 ? '1 hour' : `${n} hours`}
            </option>
          ))}
        </select>
      </LabeledField>
      <LabeledField id={`${id}-minute`} label="Minute past the hour">
        <input
          id={`${id}-minute`}
          className="input"
          type="number"
          min={0}
          max={59}
          value={String(value.minute)}
          aria-invalid={error?.startsWith('Minute') ? true : undefined}
          onChange={(e) => onChange({ ...value, minute: e.target.valueAsNumber })}
        />
        {error?.startsWith('Minute') || error?.startsWith('Every:') ? (
          <span className="field__error">{error}</span>
        ) : null}
      </LabeledField>
    </div>
  );
}
