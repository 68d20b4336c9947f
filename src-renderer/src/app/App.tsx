import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { LoadingState } from '../components/states';
import { FailureNotices } from '../components/FailureNotices';
import { Toasts } from '../components/Toasts';
import { ConnectScreen } from '../features/connect/ConnectScreen';
import { useAppStore } from '../stores/use-app-store';
import { useConnectionStore } from '../stores/use-connection-store';
import { useDeepLinksStore } from '../stores/use-deep-links-store';
import { useDeliveryFailuresStore } from '../stores/use-delivery-failures-store';
import { useOutboxStore } from '../stores/use-outbox-store';
import { Shell } from './Shell';

/** Connected: the app. Not connected: Connect. Not answered yet: a splash. */
export function App() {
  const { status, load, listen } = useConnectionStore(
    useShallow((s) => ({ status: s.status, load: s.load, listen: s.listen })),
  );
  useEffect(() => {
    const off = listen();
    const offNotices = useAppStore.getState().listen();
    const offFailures = useDeliveryFailuresStore.getState().listen();
    const offOutbox = useOutboxStore.getState().listen();
    // After the other subscriptions: a deep link may open a screen at once.
    const offLinks = useDeepLinksStore.getState().listen();
    void load();
    void useAppStore.getState().load();
    return () => {
      off();
      offNotices();
      offFailures();
      offOutbox();
      offLinks();
    };
  }, [load, listen]);

  return (
    <>
      {status === null ? (
        <div className="splash">
          <LoadingState label="Starting Postdesk…" />
        </div>
      ) : status.state === 'connected' ? (
        <Shell />
      ) : (
        <ConnectScreen />
      )}
      <div className="notice-stack">
        <FailureNotices />
        <Toasts />
      </div>
    </>
  );
}

/**
 * Shown when the page has no bridge: a stray tab, an address without a link's code, or a link that was
 * already used (each one opens a single page).
 */
export function NoBridge({ usedLink = false }: { readonly usedLink?: boolean }) {
  return (
    <div className="splash">
      <div className="card connect-card">
        <div className="card__body form-stack">
          <h1>{usedLink ? 'This link was already used' : 'Postdesk is not attached'}</h1>
          <p className="muted">
            {usedLink
              ? 'Each link opens Postdesk in one page, once. Open the newest link shown in the terminal where Postdesk is running.'
              : 'Open the link shown in the terminal where Postdesk is running. Each link opens one page.'}
          </p>
        </div>
      </div>
    </div>
  );
}
