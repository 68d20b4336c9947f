import type { Account } from '../../../../src-shared/api/accounts';
import { accountColour } from '../../app/account-colour';
import { PLATFORM_META, PLATFORM_ORDER } from '../../app/platforms';
import { hrefOf } from '../../app/router';
import type { AccountToggles } from '../../components/AccountCheckboxes';
import { faceOf } from './account-face';

/**
 * The accounts along the top of the composer, each an avatar with its name that toggles it. The checkbox stays
 * the control (Tab, Space, screen readers), named by the account and its platform; the row wraps, so every
 * account and every selected one stays in sight whatever the width. YouTube is explained rather than offered:
 * posts cannot reach it.
 */
export function AccountAvatars({ accounts, selected, onToggle }: AccountToggles) {
  const ordered = PLATFORM_ORDER.flatMap((p) => accounts.filter((a) => a.platform === p));
  const offered = ordered.filter((a) => !PLATFORM_META[a.platform].postsUnavailable);
  const unreachable = ordered.filter((a) => PLATFORM_META[a.platform].postsUnavailable);
  return (
    <div className="avatars">
      <ul className="list-chips" aria-label="Post to">
        {offered.map((a) => (
          <li key={a.id}>
            <AccountAvatar account={a} on={selected.has(a.id)} onToggle={() => onToggle(a.id)} />
          </li>
        ))}
      </ul>
      {unreachable.length > 0 ? (
        <p className="avatars__note">
          {unreachable.length === 1 ? unreachable[0]?.name : `${unreachable.length} accounts`}: YouTube is
          published through <a href={hrefOf('automations')}>automations</a> with a direct upload, not through
          posts.
        </p>
      ) : (
        <p className="avatars__note">
          YouTube is not offered here: YouTube posts go out through automations and direct uploads.
        </p>
      )}
    </div>
  );
}

function AccountAvatar({
  account,
  on,
  onToggle,
}: {
  readonly account: Account;
  readonly on: boolean;
  readonly onToggle: () => void;
}) {
  const meta = PLATFORM_META[account.platform];
  const face = faceOf(account.name);
  return (
    <label className={`avatar-toggle${on ? ' avatar-toggle--on' : ''}`} title={account.name}>
      <input
        type="checkbox"
        className="avatar-toggle__input"
        checked={on}
        onChange={onToggle}
        aria-label={`${account.name}, ${meta.label}`}
      />
      <span
        className={`mark-box avatar account-colour-${accountColour(account.id)}`}
        aria-hidden="true"
        data-testid="account-avatar"
      >
        {face.initials}
        <span className={`mark-box platform-mark avatar__badge platform-mark--${account.platform}`}>
          {meta.mark}
        </span>
      </span>
      <span className="avatar-toggle__name" aria-hidden="true">
        {account.name}
      </span>
    </label>
  );
}
