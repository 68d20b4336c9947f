import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { StatusBadge } from '../../components/StatusBadge';
import { ErrorAlert } from '../../components/states';
import { useCommandLineStore } from '../../stores/use-command-line-store';
import { SettingsCard } from './SettingsCard';
import { LoadGate } from '../../components/LoadGate';
import { BusyButton } from '../../components/BusyButton';

/**
 * The `postdesk` command on the PATH, as code editors offer their own. Installing or removing it is confirmed in
 * Postdesk's own dialog, outside this page; the card only asks.
 */
export function CommandLineCard() {
  const { state, busy, actionError, load, install, uninstall } = useCommandLineStore(
    useShallow((s) => pick(s, 'state', 'busy', 'actionError', 'load', 'install', 'uninstall')),
  );
  useEffect(() => {
    void load();
  }, [load]);

  const c = state.data;
  // Both actions wait on Postdesk's own confirmation dialog.
  const asking = { busy, working: 'Waiting for your confirmation…' };
  return (
    <SettingsCard
      id="command-line"
      title="Command line"
      body="form-stack"
      badge={
        c?.supported ? (
          <StatusBadge
            status={c.installed ? 'completed' : 'stopped'}
            label={c.installed ? 'installed' : 'not installed'}
          />
        ) : null
      }
    >
      <LoadGate state={state} what="the command’s status" onRetry={load} freshness>
        {c ? (
          <>
            <p>
              The <code>postdesk</code> command does from a terminal what this app does: posts, uploads, bulk
              imports, automations. It runs with Node.js 22.12 or later.
            </p>
            {c.location ? (
              <dl className="facts">
                <dt>{c.installed ? 'Installed at' : 'Goes to'}</dt>
                <dd>
                  <code>{c.location}</code>
                </dd>
              </dl>
            ) : null}
            {c.notes.length > 0 ? (
              <ul className="command-line__notes" aria-live="polite">
                {c.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            ) : null}
            {actionError ? <ErrorAlert error={actionError} title="The command was not changed" /> : null}
            {c.supported ? (
              <div className="btn-row">
                <BusyButton {...asking} action="install" className="btn btn--primary" onRun={install}>
                  {c.installed ? 'Install again' : 'Install command'}
                </BusyButton>
                {c.installed ? (
                  <BusyButton {...asking} action="uninstall" onRun={uninstall}>
                    Remove command
                  </BusyButton>
                ) : null}
              </div>
            ) : null}
          </>
        ) : null}
      </LoadGate>
    </SettingsCard>
  );
}
