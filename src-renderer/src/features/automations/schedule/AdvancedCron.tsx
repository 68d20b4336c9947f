import { Field } from '../../../components/Field';
import { cronToPick, pickToCron, type SchedulePick } from './cron-pick';

/**
 * The only place a cron is written: behind a disclosure, showing the cron of what is picked. A cron the picker can
 * say switches the picker to it; any other stays custom text.
 */
export function AdvancedCron({
  value,
  open,
  onToggle,
  onChange,
  error,
}: {
  readonly value: SchedulePick;
  readonly open: boolean;
  readonly onToggle: (open: boolean) => void;
  readonly onChange: (p: SchedulePick) => void;
  readonly error: string | null;
}) {
  return (
    <details
      className="schedule-picker__advanced"
      open={open}
      onToggle={(e) => onToggle(e.currentTarget.open)}
    >
      <summary>Advanced (cron)</summary>
      <Field
        label="Schedule (cron)"
        hint="Five parts: minute, hour, day of month, month, weekday. 0 9 * * 1-5 is 9:00 on weekdays."
        error={error}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input automation-editor__cron"
            value={value.kind === 'custom' ? value.cron : pickToCron(value)}
            spellCheck={false}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              const read = cronToPick(e.target.value);
              onChange(read.kind === 'custom' ? { kind: 'custom', cron: e.target.value } : read);
            }}
          />
        )}
      </Field>
    </details>
  );
}
