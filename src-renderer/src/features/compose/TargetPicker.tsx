import type { Account } from '../../../../src-shared/api/accounts';
import type { Platform } from '../../../../src-shared/api/common';
import { hrefOf } from '../../app/router';
import { PLATFORM_META, PLATFORM_ORDER } from '../../app/platforms';
import { PlatformMark } from '../../components/PlatformMark';

/** Accounts grouped by platform. YouTube is explained rather than offered: posts cannot reach it. */
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
        accounts.map((a) => (
          <label key={a.id} className="checkbox target">
            <input type="checkbox" checked={selected.has(a.id)} onChange={() => onToggle(a.id)} />
            <span>{a.name}</span>
          </label>
        ))
      )}
    </fieldset>
  );
}
