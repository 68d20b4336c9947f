import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { useConnectionStore } from '../../stores/use-connection-store';
import { toast } from '../../stores/use-toast-store';
import { SettingsCard } from './SettingsCard';
import { BusyButton } from '../../components/BusyButton';

/** Where Postdesk is connected and whether a key is stored, with forgetting the key and disconnecting. */
export function ConnectionCard() {
  const { status, busy, disconnect, forgetKey } = useConnectionStore(
    useShallow((s) => pick(s, 'status', 'busy', 'disconnect', 'forgetKey')),
  );
  const [confirming, setConfirming] = useState(false);
  const where = status?.offline ? 'the offline sandbox' : (status?.base_url ?? 'the service');
  return (
    <SettingsCard id="connection" title="Connection" body="row row--wrap row--ends settings__connection">
      <dl className="facts">
        <dt>Connected to</dt>
        <dd>{status?.offline ? 'The offline sandbox on this computer' : (status?.base_url ?? '—')}</dd>
        <dt>API key</dt>
        <dd>{status?.has_key ? 'Stored (write-only: it is never shown again)' : 'None stored'}</dd>
      </dl>
      <div className="btn-row">
        {status?.has_key && !status.offline ? (
          <button
            type="button"
            className="btn"
            onClick={() =>
              void forgetKey().then(
                (ok) => ok && toast('success', 'The API key was removed from the keychain.'),
              )
            }
          >
            Forget API key
          </button>
        ) : null}
        {confirming ? null : (
          <button type="button" className="btn" disabled={busy !== null} onClick={() => setConfirming(true)}>
            Disconnect
          </button>
        )}
      </div>
      {confirming ? (
        <div className="alert alert--warning settings__confirm" role="group" aria-label="Disconnect?">
          <div>
            <p className="alert__title">Disconnect from {where}?</p>
            <p>
              Postdesk stops reaching it from this computer: screens show nothing from it and automations stop
              running here until you connect again.{' '}
              {status?.has_key && !status.offline ? 'The stored API key stays, for the next connect.' : ''}
            </p>
            <div className="btn-row">
              <button type="button" className="btn btn--small" autoFocus onClick={() => setConfirming(false)}>
                Stay connected
              </button>
              <BusyButton
                action="disconnect"
                busy={busy}
                working="Disconnecting…"
                className="btn btn--small btn--danger"
                onRun={disconnect}
              >
                Yes, disconnect
              </BusyButton>
            </div>
          </div>
        </div>
      ) : null}
    </SettingsCard>
  );
}
