import './accounts.css';
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { formatDate } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { EmptyState } from '../../components/states';
import { IconRefresh } from '../../components/icons';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { toast } from '../../stores/use-toast-store';
import { LoadGate } from '../../components/LoadGate';

export function AccountsScreen() {
  const { accounts, load } = useAccountsStore(useShallow((s) => pick(s, 'accounts', 'load')));
  useEffect(() => void load(), [load]);

  const list = accounts.data;
  return (
    <div className="page">
      <PageHeader
        title="Accounts"
        subtitle="Social accounts connected to your workspace, newest first. Connect new ones in the dashboard."
        actions={
          <button type="button" className="btn" onClick={() => void load()} disabled={accounts.loading}>
            <IconRefresh /> Refresh
          </button>
        }
      />
      <Freshness state={accounts} what="the accounts" onRetry={load} />
      <section className="card" aria-label="Connected accounts">
        <LoadGate state={accounts} what="accounts" onRetry={load}>
          {!list || list.length === 0 ? (
            <EmptyState title="No accounts yet">
              Connect a social account in the dashboard, then refresh.
            </EmptyState>
          ) : (
            <ul className="list" aria-label="Accounts">
              {list.map((a) => (
                <li key={a.id} className="list__item account-row">
                  <PlatformMark platform={a.platform} size="lg" />
                  <div className="account-row__text">
                    <span className="account-row__name">{a.name}</span>
                    <span className="muted">
                      {PLATFORM_META[a.platform].label} · connected {formatDate(a.created_at)}
                    </span>
                  </div>
                  {PLATFORM_META[a.platform].postsUnavailable ? (
                    <span className="badge badge--plain" title={PLATFORM_META[a.platform].hint}>
                      automations only
                    </span>
                  ) : null}
                  <details className="account-row__id">
                    <summary className="faint">Id for CSV targets</summary>
                    <code>
                      {a.platform}:{a.id}
                    </code>
                  </details>
                  <button
                    type="button"
                    className="btn btn--small btn--ghost"
                    aria-label={`Copy the id of ${a.name}`}
                    onClick={() =>
                      void navigator.clipboard
                        .writeText(`${a.platform}:${a.id}`)
                        .then(() => toast('success', `Copied the id of ${a.name}, for CSV targets.`))
                        .catch(() =>
                          toast('warning', 'The clipboard is not available here; select the id instead.'),
                        )
                    }
                  >
                    Copy
                  </button>
                </li>
              ))}
            </ul>
          )}
        </LoadGate>
      </section>
    </div>
  );
}
