import { useId, useState } from 'react';
import { DayPicker } from '../../../components/DayPicker';
import { TimeOfDayPicker } from '../../../components/TimeOfDayPicker';
import { clockIs12h, formatWallTime } from '../../../app/wall-time';
import { pickProblem, pickToCron, scheduleInWords, type SchedulePick } from './cron-pick';
import { AdvancedCron } from './AdvancedCron';
import { EveryHours } from './EveryHours';
import { LabeledField } from '../../../components/Field';
import { Options } from '../../../components/Filters';

type Kind = SchedulePick['kind'];
const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekdays', label: 'Every weekday' },
  { value: 'days', label: 'On chosen days' },
  { value: 'hours', label: 'Every few hours' },
  { value: 'custom', label: 'Custom (Advanced)' },
];

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The time a choice runs at, kept when the person switches between kinds. */
const timeOf = (p: SchedulePick): string => ('time' in p ? p.time : '09:00');

function switchTo(kind: Kind, p: SchedulePick): SchedulePick {
  if (kind === 'daily' || kind === 'weekdays') return { kind, time: timeOf(p) };
  if (kind === 'days') return { kind, days: p.kind === 'days' ? p.days : [1, 3, 5], time: timeOf(p) };
  if (kind === 'hours') return { kind, every: 6, minute: 0 };
  return { kind: 'custom', cron: pickToCron(p) };
}

/**
 * When an automation runs, picked rather than typed: every day, weekdays, chosen days at a time, or every few
 * hours. A cron expression is written only in the Advanced part (opened for a schedule the picker cannot say).
 */
export function SchedulePicker({
  value,
  onChange,
  error,
}: {
  readonly value: SchedulePick;
  readonly onChange: (p: SchedulePick) => void;
  readonly error: string | null;
}) {
  const id = useId();
  // Open by the person, or from the start for a schedule only a cron can say; typing never closes it.
  const [open, setOpen] = useState(value.kind === 'custom');
  const problem = pickProblem(value);
  const fieldError = (prefix: string) => (error?.startsWith(prefix) ? error : null);
  // The service's word about the schedule (or its zone) names no part of the picker: said below it.
  const general =
    error && !/^(On|At|Every|Minute past the hour|Schedule \(cron\)):/.test(error) ? error : null;
  return (
    <div className="stack schedule-picker">
      <LabeledField id={`${id}-kind`} label="Repeats">
        <select
          id={`${id}-kind`}
          className="input"
          value={value.kind}
          onChange={(e) => {
            const kind = e.target.value as Kind;
            if (kind === 'custom') setOpen(true);
            onChange(switchTo(kind, value));
          }}
        >
          <Options of={KINDS} />
        </select>
      </LabeledField>
      {value.kind === 'days' ? (
        <DayPicker
          label="On"
          value={new Set(value.days.map((d) => (d === 0 ? 7 : d)))}
          onChange={(days) => onChange({ ...value, days: [...days].map((d) => d % 7) })}
          error={fieldError('On:')}
        />
      ) : null}
      {'time' in value ? (
        <TimeOfDayPicker
          label="At"
          value={value.time}
          onChange={(time) => onChange({ ...value, time })}
          error={fieldError('At:')}
        />
      ) : null}
      {value.kind === 'hours' ? <EveryHours value={value} onChange={onChange} error={error} /> : null}
      <AdvancedCron
        value={value}
        open={open}
        onToggle={setOpen}
        onChange={onChange}
        error={fieldError('Schedule (cron):')}
      />
      {problem === null ? (
        <p className="field__hint schedule-picker__words" aria-live="polite">
          Runs{' '}
          {lowerFirst(scheduleInWords(pickToCron(value), { use24: !clockIs12h(), time: formatWallTime }))}.
        </p>
      ) : null}
      {general ? <span className="field__error">{general}</span> : null}
    </div>
  );
}
