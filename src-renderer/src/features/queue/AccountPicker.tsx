import type { Account } from '../../../../src-shared/api/accounts';
import { PlatformMark } from '../../components/PlatformMark';

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
        {accounts.map((a) => (
          <label key={a.id} className="checkbox">
            <input
              type="checkbox"
              checked={value.has(a.id)}
              onChange={(e) => {
                const next = new Set(value);
                if (e.target.checked) next.add(a.id);
                else next.delete(a.id);
                onChange(next);
              }}
            />
            <PlatformMark platform={a.platform} decorative />
            {a.name}
          </label>
        ))}
      </span>
      {error ? <span className="field__error">{error}</span> : null}
    </fieldset>
  );
}
