import type { Account } from '../../../../src-shared/api/accounts';
import { toggled } from '../../app/toggled';
import { AccountCheckboxes } from '../../components/AccountCheckboxes';

/** The accounts a posting time is for, as checkboxes. */
export function AccountPicker({
  accounts,
  value,
  onChange,
  error,
}: {
  readonly accounts: readonly Account[];
  readonly value: ReadonlySet<string>;
  readonly onChange: (ids: ReadonlySet<string>) => void;
  readonly error: string | null;
}) {
  return (
    <fieldset className="day-picker">
      <legend className="field__label">Accounts</legend>
      <span className="day-picker__days">
        <AccountCheckboxes
          accounts={accounts}
          selected={value}
          onToggle={(id) => onChange(toggled(value, id))}
          mark="decorative"
        />
      </span>
      {error ? <span className="field__error">{error}</span> : null}
    </fieldset>
  );
}
