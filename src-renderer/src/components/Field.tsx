import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** A control's value and the change of it, as its parent holds them. */
export interface Controlled<T> {
  readonly value: T;
  readonly onChange: (value: T) => void;
}

/** A label, its control, a hint and an error, wired with ids so the control gets its name and description. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: string | null;
  readonly children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={errorId}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/**
 * A label over its control, tied by a fixed id that the control (the child) carries too, and an
 * optional hint below it, whose id is `${id}-hint` for the control's aria-describedby.
 */
export function LabeledField({
  id,
  label,
  hint,
  className,
  children,
}: {
  readonly id: string;
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <span className="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/**
 * An `input` (text, number, date…) that hands on its value as typed, styled as the app's inputs; every other
 * attribute (id, type, aria-*) passes through.
 */
export function TextInput({
  className,
  onValue,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  readonly value: string;
  readonly onValue: (value: string) => void;
}) {
  return (
    <input
      className={className ? `input ${className}` : 'input'}
      {...rest}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}

/** A labelled `TextInput`: the id given once ties the label to it. */
export function TextField({
  id,
  label,
  hint,
  fieldClass,
  ...input
}: Parameters<typeof TextInput>[0] & {
  readonly id: string;
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  /** The class of the field around the label and the input. */
  readonly fieldClass?: string;
}) {
  return (
    <LabeledField id={id} label={label} hint={hint} className={fieldClass}>
      <TextInput id={id} {...input} />
    </LabeledField>
  );
}
