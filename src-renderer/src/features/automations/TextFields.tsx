import { Field, TextInput, type Controlled } from '../../components/Field';

/** The automation's name (the service takes up to 200 characters). */
export function NameField({
  value,
  onChange,
  error,
}: Controlled<string> & { readonly error: string | undefined }) {
  return (
    <Field label="Name" error={error}>
      {({ id, describedBy, invalid }) => (
        <TextInput
          id={id}
          value={value}
          maxLength={200}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onValue={onChange}
        />
      )}
    </Field>
  );
}

/** What the agent makes on each run. */
export function InstructionsField({ value, onChange }: Controlled<string>) {
  return (
    <Field label="Instructions" hint="What the agent should make on each run.">
      {({ id, describedBy }) => (
        <textarea
          id={id}
          className="textarea"
          rows={4}
          value={value}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
