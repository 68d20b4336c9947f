import type { Platform } from '../../../src-shared/api/common';
import { PLATFORM_META, PLATFORM_ORDER } from '../app/platforms';
import { LabeledField } from './Field';

/** The `option`s of a select: each a value and its words. */
export function Options<T extends string>({
  of,
}: {
  readonly of: readonly { readonly value: T; readonly label: string }[];
}) {
  return of.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

/** A labelled select of a toolbar; the id ties label and control. */
export function SelectFilter<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: T;
  readonly options: readonly { readonly value: T; readonly label: string }[];
  readonly onChange: (value: T) => void;
}) {
  return (
    <LabeledField id={id} label={label}>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value as T)}>
        <Options of={options} />
      </select>
    </LabeledField>
  );
}

const PLATFORM_OPTIONS: readonly { value: Platform | 'all'; label: string }[] = [
  { value: 'all', label: 'All platforms' },
  ...PLATFORM_ORDER.map((p) => ({ value: p, label: PLATFORM_META[p].label })),
];

export function PlatformFilter({
  id,
  value,
  onChange,
}: {
  readonly id: string;
  readonly value: Platform | 'all';
  readonly onChange: (value: Platform | 'all') => void;
}) {
  return (
    <SelectFilter id={id} label="Platform" value={value} options={PLATFORM_OPTIONS} onChange={onChange} />
  );
}
