import type { Account } from '../../../../src-shared/api/accounts';
import type { Platform } from '../../../../src-shared/api/common';
import { hrefOf } from '../../app/router';
import { PLATFORM_META, PLATFORM_ORDER } from '../../app/platforms';
import { PlatformMark } from '../../components/PlatformMark';

/** An account's avatar when the service gives none: the first letters of its name. */
const initialsOf = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => Array.from(w)[0]?.toUpperCase() ?? '')
    .join('') || '?';

/** Accounts grouped by platform, each a chip with its avatar and platform. YouTube is explained rather than offered: posts cannot reach it. */
export function TargetPicker({
  accounts,
  selected,
  onToggle,
}: {
  readonly accounts: readonly Account[];
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (id: string) => void;
}) {
  const groups = PLATFORM_ORDER.map((platform) => ({
    platform,
    accounts: accounts.filter((a) => a.platform === platform),
  })).filter((g) => g.accounts.length > 0);

  return (
    <div className="targets">
      {groups.map((g) => (
        <TargetGroup
          key={g.platform}
          platform={g.platform}
          accounts={g.accounts}
          selected={selected}
          onToggle={onToggle}
        />
      ))}
    </div>
  );
}

function TargetGroup({
  platform,
  accounts,
  selected,
  onToggle,
}: {
  readonly platform: Platform;
  readonly accounts: readonly Account[];
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (id: string) => void;
}) {
  const meta = PLATFORM_META[platform];
  return (
    <fieldset className="target-group">
      <legend className="target-group__legend">
        <PlatformMark platform={platform} decorative />
        {meta.label}
      </legend>
      {meta.postsUnavailable ? (
        <p className="target-group__note">
          {accounts.length === 1 ? accounts[0]?.name : `${accounts.length} accounts`}: YouTube is published
          through <a href={hrefOf('automations')}>automations</a> with a direct upload, not through posts.
        </p>
      ) : (
        <div className="chips">
          {accounts.map((a) => (
            <label key={a.id} className={`chip${selected.has(a.id) ? ' chip--on' : ''}`}>
              <input
                type="checkbox"
                className="chip__input"
                checked={selected.has(a.id)}
                onChange={() => onToggle(a.id)}
              />
              <span className="chip__avatar" aria-hidden="true">
                {initialsOf(a.name)}
                <span className={`platform-mark chip__badge platform-mark--${platform}`}>{meta.mark}</span>
              </span>
              <span className="chip__name">{a.name}</span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
