import { useId } from 'react';
import { Field, TextInput } from './Field';

/** Every zone the browser knows, for the field's suggestions. */
const ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

/** A time zone typed freely, with every zone the browser knows as suggestions. */
export function TimeZoneField({
  hint,
  value,
  onChange,
}: {
  readonly hint: string;
  readonly value: string;
  readonly onChange: (zone: string) => void;
}) {
  const zonesId = useId();
  return (
    <Field label="Time zone" hint={hint}>
      {({ id, describedBy }) => (
        <>
          <TextInput
            id={id}
            list={zonesId}
            value={value}
            spellCheck={false}
            aria-describedby={describedBy}
            onValue={onChange}
          />
          <datalist id={zonesId}>
            {ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
