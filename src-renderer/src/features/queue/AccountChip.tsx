import { useState, type CSSProperties } from 'react';
import { accountColour } from '../../app/account-colour';
import { describeError } from '../../app/describe-error';
import { PlatformMark } from '../../components/PlatformMark';
import { IconX } from '../../components/icons';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';
import { useQueueContext } from './queue-context';
import { withoutSlot } from './slot-plan';
import type { CellAccount } from './week-grid';

/** An account posting at a slot, with the button that removes this weekly posting time from it. */
export function AccountChip({ entry, when }: { readonly entry: CellAccount; readonly when: string }) {
  const { accounts, queues } = useQueueContext();
  const saveWith = useQueueStore((s) => s.saveWith);
  const [busy, setBusy] = useState(false);
  const account = accounts.find((a) => a.id === entry.account_id);
  const queue = queues.find((q) => q.account_id === entry.account_id);
  const name = account?.name ?? 'An account no longer connected';
  const remove = async () => {
    if (!queue || busy) return;
    setBusy(true);
    const r = await saveWith((saved) => {
      const now = saved.find((q) => q.account_id === entry.account_id);
      return now ? [{ account_id: entry.account_id, schedule: withoutSlot(now, entry.slot) }] : [];
    });
    setBusy(false);
    if (!r.ok) toast('error', `The posting time was not removed: ${describeError(r.error)}`);
    else toast('success', `${name} no longer posts at this time each week.`);
  };
  return (
    <li
      className="queue-chip"
      title={name}
      style={{ '--chip-account': `var(--account-${accountColour(entry.account_id)})` } as CSSProperties}
    >
      {account ? <PlatformMark platform={account.platform} decorative /> : null}
      {/* The full name is in the legend above the grid; here the account's colour and mark stand for it. */}
      <span className="visually-hidden">{name}</span>
      <button
        type="button"
        className="queue-chip__remove"
        disabled={busy || !queue}
        aria-label={`Remove the weekly posting time of ${name}, ${when}`}
        title={`Remove this posting time of ${name} (every week)`}
        onClick={() => void remove()}
      >
        <IconX size={12} />
      </button>
    </li>
  );
}
