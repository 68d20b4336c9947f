import type { CSSProperties } from 'react';
import { accountColour } from '../../app/account-colour';
import { PlatformMark } from '../../components/PlatformMark';
import { useQueueContext } from './queue-context';

/** Which colour is which account: the grid's cells show each account by its colour and mark only. */
export function AccountLegend() {
  const { accounts, queues } = useQueueContext();
  const posting = accounts.filter((a) => queues.some((q) => q.account_id === a.id && q.slots.length > 0));
  return (
    <ul className="queue-legend" aria-label="Accounts with posting times">
      {posting.map((a) => (
        <li
          key={a.id}
          className="queue-chip queue-legend__item"
          style={{ '--chip-account': `var(--account-${accountColour(a.id)})` } as CSSProperties}
        >
          <PlatformMark platform={a.platform} decorative />
          {a.name}
        </li>
      ))}
    </ul>
  );
}
