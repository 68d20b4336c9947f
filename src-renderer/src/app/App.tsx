import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { LoadingState } from '../components/states';
import { ConnectScreen } from '../features/connect/ConnectScreen';
import { useAppStore } from '../stores/use-app-store';
import { useConnectionStore } from '../stores/use-connection-store';
import { useDeepLinksStore } from '../stores/use-deep-links-store';
import { useDeliveryFailuresStore } from '../stores/use-delivery-failures-store';
import { useLinkStore } from '../stores/use-link-store';
import { useOutboxStore } from '../stores/use-outbox-store';
import { useSettingsStore } from '../stores/use-settings-store';
import { Notices } from './Notices';
import { Shell } from './Shell';
import { prefetchScreens } from './routes';

/** Right after the first render, the other screens' chunks load in the background (a visit before they are in suspends, and React then holds the screen back ~300 ms). */
const PREFETCH_AFTER_MS = 0;

/** Connected: the app. Not connected: Connect. Not answered yet: a splash. */
export function App() {
  const { status, load, listen } = useConnectionStore(
    useShallow((s) => ({ status: s.status, load: s.load, listen: s.listen })),
  );
  const link = useLinkStore((s) => s.state);
  useEffect(() => {
    const off = listen();
    const offNotices = useAppStore.getState().listen();
    const offFailures = useDeliveryFailuresStore.getState().listen();
    const offOutbox = useOutboxStore.getState().listen();
    // The Preferences (zone, clock, theme, density) apply on every screen from the start.
    const offSettings = useSettingsStore.getState().listen();
    void useSettingsStore.getState().load();
    // After the other subscriptions: a deep link may open a screen at once.
    const offLinks = useDeepLinksStore.getState().listen();
    void load();
    void useAppStore.getState().load();
    const idle = window.setTimeout(prefetchScreens, PREFETCH_AFTER_MS);
    return () => {
      window.clearTimeout(idle);
      off();
      offNotices();
      offFailures();
      offOutbox();
      offSettings();
      offLinks();
    };
  }, [load, listen]);

  // The host no longer knows this page (it restarted, or this tab kept another launch's session).
  if (link === 'refused') return <NoBridge reason="ended" />;
  return (
    <>
      {link === 'reconnecting' ? (
        <p className="link-banner" role="alert">
          Postdesk is not answering this page. Trying again… If Postdesk was closed, start it again and open
          the link it shows.
        </p>
      ) : null}
      {status === null ? (
        <div className="splash">
          <LoadingState label="Starting Postdesk…" />
        </div>
      ) : status.state === 'connected' ? (
        <Shell />
      ) : (
        <ConnectScreen />
      )}
      {/* The shell holds its own, in its main column. */}
      {status?.state === 'connected' ? null : <Notices />}
    </>
  );
}

const NO_BRIDGE = {
  'no-link': {
    title: 'Postdesk is not attached',
    text: 'Open the link shown in the terminal where Postdesk is running. Each link opens one page.',
  },
  'used-link': {
    title: 'This link was already used',
    text: 'Each link opens Postdesk in one page, once. Open the newest link shown in the terminal where Postdesk is running.',
  },
  ended: {
    title: 'Postdesk is not attached',
    text: 'This page belongs to a Postdesk that has stopped or restarted, so it can no longer reach it. Open the newest link shown in the terminal where Postdesk is running; this page will not try again.',
  },
} as const;

/**
 * Shown when the page has no bridge: a stray tab, an address without a link's code, a link that was
 * already used (each one opens a single page), or a session the host no longer accepts.
 */
export function NoBridge({ reason }: { readonly reason: keyof typeof NO_BRIDGE }) {
  const { title, text } = NO_BRIDGE[reason];
  return (
    <div className="splash">
      <div className="card connect-card">
        <div className="card__body form-stack">
          <h1>{title}</h1>
          <p className="muted">{text}</p>
        </div>
      </div>
    </div>
  );
}
