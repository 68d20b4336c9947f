import type { Account } from '../../../src-shared/api/accounts';
import { PlatformMark } from './PlatformMark';

/** Accounts offered as toggles, the ones chosen, and the toggle of one. */
export interface AccountToggles {
  readonly accounts: readonly Account[];
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (id: string) => void;
}

/**
 * One checkbox per account, named by the account; with `mark`, its platform's mark comes first, `decorative`
 * where something beside it already names the platform.
 */
export function AccountCheckboxes({
  accounts,
  selected,
  onToggle,
  mark,
}: AccountToggles & { readonly mark?: 'named' | 'decorative' }) {
  return accounts.map((a) => (
    <label key={a.id} className="checkbox">
      <input type="checkbox" checked={selected.has(a.id)} onChange={() => onToggle(a.id)} />
      {mark ? <PlatformMark platform={a.platform} decorative={mark === 'decorative'} /> : null}
      {a.name}
    </label>
  ));
}
