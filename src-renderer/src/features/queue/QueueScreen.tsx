import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { localZone } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { usePreferencesStore } from '../../app/preferences';
import { AccountsGate } from '../../components/AccountsGate';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { RefreshButton } from '../../components/RefreshButton';
import { ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useQueueStore } from '../../stores/use-queue-store';
import { AddTimeDialog } from './AddTimeDialog';
import { QueueWeek } from './QueueWeek';
import './queue.css';

/**
 * The queue as one weekly grid shared across accounts: posting times as rows, the person's week as columns, each
 * slot with the accounts that post then and the queued post that fills it. Times read in the person's zone.
 */
export function QueueScreen() {
  const { accounts, ensureAccounts, loadAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure, loadAccounts: s.load })),
  );
  const { schedules, upcoming, load } = useQueueStore(
    useShallow((s) => ({ schedules: s.schedules, upcoming: s.upcoming, load: s.load })),
  );
  // Re-rendered when the zone changes: the grid is laid out in it.
  usePreferencesStore((s) => s.timeZone);
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    void ensureAccounts();
    void load();
  }, [ensureAccounts, load]);

  const postable = useMemo(
    () => (accounts.data ?? []).filter((a) => !PLATFORM_META[a.platform].postsUnavailable),
    [accounts.data],
  );

  return (
    <div className="page">
      <PageHeader
        title="Queue"
        subtitle={`Posting times shared across your accounts, in ${localZone()} time. Add to queue (in Compose) fills the next free one.`}
        actions={
          <>
            <button
              type="button"
              className="btn btn--primary"
              // It adds to the saved times: offered once they are known.
              disabled={schedules.data === null}
              onClick={() => setAdding(true)}
            >
              + Add posting time
            </button>
            <RefreshButton onRefresh={() => void load()} />
          </>
        }
      />
      <Freshness state={upcoming} what="the queue" onRetry={load} />
      {accounts.error ? <Freshness state={accounts} what="the accounts" onRetry={loadAccounts} /> : null}
      {schedules.error ? <Freshness state={schedules} what="the posting times" onRetry={load} /> : null}
      {adding && schedules.data ? (
        <AddTimeDialog accounts={postable} queues={schedules.data} onClose={() => setAdding(false)} />
      ) : null}
      <AccountsGate accounts={accounts} usable={postable.length} onRetry={() => void loadAccounts()}>
        {schedules.data === null && schedules.error ? (
          <ErrorState
            error={schedules.error}
            title="Could not load the posting times"
            onRetry={() => void load()}
          />
        ) : upcoming.data === null && upcoming.error ? (
          <ErrorState error={upcoming.error} title="Could not load the queue" onRetry={() => void load()} />
        ) : schedules.data === null || upcoming.data === null ? (
          <LoadingState label="Loading the queue…" />
        ) : (
          <QueueWeek accounts={postable} queues={schedules.data} upcoming={upcoming.data} />
        )}
      </AccountsGate>
    </div>
  );
}
