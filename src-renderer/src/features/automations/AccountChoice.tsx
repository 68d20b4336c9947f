import { PLATFORM_META, PLATFORM_ORDER } from '../../app/platforms';
import { AccountCheckboxes, type AccountToggles } from '../../components/AccountCheckboxes';
import { PlatformMark } from '../../components/PlatformMark';

/** The owner's accounts by platform; automations reach YouTube too (by direct upload). */
export function AccountChoice({
  accounts,
  selected,
  onToggle,
  error,
}: AccountToggles & { readonly error: string | undefined }) {
  const groups = PLATFORM_ORDER.map((platform) => ({
    platform,
    accounts: accounts.filter((a) => a.platform === platform),
  })).filter((g) => g.accounts.length > 0);
  return (
    <fieldset
      className="automation-editor__targets"
      aria-describedby={error ? 'automation-targets-error' : undefined}
    >
      <legend className="field__label">Accounts</legend>
      {groups.length === 0 ? <p className="faint">No connected accounts.</p> : null}
      <div className="automation-editor__groups">
        {groups.map((g) => (
          <div key={g.platform} className="stack automation-editor__group">
            <span className="automation-editor__platform">
              <PlatformMark platform={g.platform} decorative />
              {PLATFORM_META[g.platform].label}
            </span>
            <AccountCheckboxes accounts={g.accounts} selected={selected} onToggle={onToggle} />
          </div>
        ))}
      </div>
      {error ? (
        <span className="field__error" id="automation-targets-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
