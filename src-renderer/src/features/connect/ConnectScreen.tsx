import { useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { ErrorAlert } from '../../components/states';
import { LabeledField, TextField } from '../../components/Field';
import { IconPlug } from '../../components/icons';
import { useConnectionStore } from '../../stores/use-connection-store';
import { BusyButton } from '../../components/BusyButton';

/**
 * Base URL and API key, or "Try offline". The key field is uncontrolled: the key lives only in the
 * input until submit, is emptied the moment the form is sent, and is never put in any store.
 */
export function ConnectScreen() {
  const { status, busy, error, connect, tryOffline } = useConnectionStore(
    useShallow((s) => pick(s, 'status', 'busy', 'error', 'connect', 'tryOffline')),
  );
  const keyRef = useRef<HTMLInputElement>(null);
  const [baseUrl, setBaseUrl] = useState(() => (status && !status.offline && status.base_url) || 'https://');
  const [hasKey, setHasKey] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const input = keyRef.current;
    if (!input) return;
    const key = input.value;
    input.value = '';
    setHasKey(false);
    void connect(baseUrl.trim(), key);
  };

  return (
    <div className="connect">
      <div className="connect__intro">
        <span className="brand-mark brand-mark--lg" aria-hidden="true">
          P
        </span>
        <h1>Welcome to Postdesk</h1>
        <p className="muted">Connect your publishing account, or try everything offline first.</p>
      </div>

      {status?.state === 'error' && status.message && !error ? (
        <div className="alert alert--warning" role="status">
          {status.message}
        </div>
      ) : null}
      {error ? <ErrorAlert error={error} context="connect" title="Could not connect" /> : null}

      <div className="connect__options">
        <form className="card connect-card" onSubmit={onSubmit} aria-labelledby="connect-account-title">
          <div className="card__body form-stack">
            <div>
              <h2 id="connect-account-title">Use your account</h2>
              <p className="muted">
                Postdesk checks the key by listing your accounts, then keeps it in the system keychain.
              </p>
            </div>
            <TextField
              id="connect-base-url"
              label="Service URL"
              type="url"
              required
              inputMode="url"
              autoComplete="url"
              value={baseUrl}
              onValue={setBaseUrl}
            />
            <LabeledField
              id="connect-api-key"
              label="API key"
              hint="Create one in your dashboard under API keys. It is never shown again here."
            >
              <input
                id="connect-api-key"
                ref={keyRef}
                className="input mono"
                type="password"
                required
                autoComplete="off"
                spellCheck={false}
                aria-describedby="connect-api-key-hint"
                onInput={(e) => setHasKey(e.currentTarget.value.trim().length > 0)}
              />
            </LabeledField>
            <button type="submit" className="btn btn--primary" disabled={busy !== null || !hasKey}>
              {busy === 'connect' ? 'Checking key…' : 'Connect'}
            </button>
          </div>
        </form>

        <section className="card connect-card connect-card--offline" aria-labelledby="connect-offline-title">
          <div className="card__body form-stack">
            <div className="state__icon" aria-hidden="true">
              <IconPlug size={20} />
            </div>
            <div>
              <h2 id="connect-offline-title">Try offline</h2>
              <p className="muted">
                Runs the whole service on this computer with demo accounts. Nothing is published anywhere: a
                safe place to learn Postdesk.
              </p>
            </div>
            <BusyButton action="offline" busy={busy} working="Starting sandbox…" onRun={tryOffline}>
              Try offline
            </BusyButton>
          </div>
        </section>
      </div>
    </div>
  );
}
